import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { userFixture } from '@/test/fixtures';
import { fail, mockApi, ok } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders } from '@/test/render';
import { WalletPage } from './wallet-page';

function setup(options: { topUp?: () => unknown; status?: object; quota?: number } = {}) {
  let quota = options.quota ?? 1_000_000;
  const api = mockApi({
    'GET /api/user/self': () => ok(userFixture({ quota })),
    'POST /api/user/topup':
      options.topUp ??
      (() => {
        quota += 250_000;
        return ok(250_000);
      }),
  });
  renderWithProviders(<WalletPage />, { user: ordinaryUser, status: options.status ?? {} });
  return api;
}

const redeem = async (code: string) => {
  const input = screen.getByRole('textbox', { name: '兑换码' });
  await userEvent.clear(input);
  if (code) await userEvent.type(input, code);
  await userEvent.click(screen.getByRole('button', { name: '兑换' }));
};

describe('wallet', { timeout: 20_000 }, () => {
  it('shows the balance and asks for a code before calling the server', async () => {
    const { calls } = setup();
    expect(await screen.findByText('$2.00')).toBeInTheDocument();
    await redeem('   ');
    expect(await screen.findByText('请输入兑换码！')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/user/topup')).toBe(false);
  });

  it('shows a negative balance as a debt, then the balance a code brings back', async () => {
    setup({ quota: -250_000 });
    const balance = await screen.findByTestId('wallet-balance');
    await vi.waitFor(() => expect(balance).toHaveTextContent('-$0.50欠费'));
    expect(screen.getByText('-$0.50')).toHaveStyle({ color: 'var(--mantine-color-red-text)' });
    await redeem('CODE-123');
    await vi.waitFor(() =>
      expect(screen.getByTestId('wallet-balance')).toHaveTextContent(/^\$0\.00$/),
    );
    expect(screen.queryByTestId('debt-badge')).not.toBeInTheDocument();
  });

  it('redeems a code, names the amount and shows the new balance', async () => {
    const { calls } = setup();
    await screen.findByText('$2.00');
    await redeem(' CODE-123 ');
    expect(await screen.findByText('兑换成功！增加额度：$0.50')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/user/topup')?.body).toEqual({
      key: 'CODE-123',
    });
    expect(await screen.findByTestId('wallet-balance')).toHaveTextContent('$2.50');
    expect(screen.getByRole('textbox', { name: '兑换码' })).toHaveValue('');
  });

  it("shows the server's message when a code is refused", async () => {
    setup({ topUp: () => fail('兑换码已被使用') });
    await screen.findByText('$2.00');
    await redeem('used-code');
    expect(await screen.findByText('兑换码已被使用')).toBeInTheDocument();
  });

  it('says "request failed" when the call itself fails', async () => {
    setup({
      topUp: () => {
        throw new TypeError('network down');
      },
    });
    await screen.findByText('$2.00');
    await redeem('any');
    expect(await screen.findByText('请求失败')).toBeInTheDocument();
  });

  it('offers the get-code button only when a top-up link is set', async () => {
    setup();
    await screen.findByText('$2.00');
    expect(screen.queryByRole('link', { name: '获取兑换码' })).not.toBeInTheDocument();
  });

  it('links the get-code button to TopUpLink in a new tab', async () => {
    setup({ status: { top_up_link: 'https://shop.example.com/codes' } });
    const link = await screen.findByRole('link', { name: '获取兑换码' });
    expect(link).toHaveAttribute('href', 'https://shop.example.com/codes');
    expect(link).toHaveAttribute('target', '_blank');
    await vi.waitFor(() => expect(screen.getByText('$2.00')).toBeInTheDocument());
  });
});
