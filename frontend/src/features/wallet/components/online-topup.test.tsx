import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StatusDto } from '@tollgate/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userFixture } from '@/test/fixtures';
import { fail, mockApi, ok, type RecordedCall } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders, rootUser } from '@/test/render';
import { WalletPage } from './wallet-page';

const order = (over: object = {}) => ({
  trade_no: 'USR2NOabc123',
  user_id: 2,
  amount: 5,
  money: 36.5,
  quota: 2_500_000,
  payment_method: 'alipay',
  provider: 'epay',
  status: 'pending',
  create_time: 1_700_000_000,
  complete_time: 0,
  provider_reference: '',
  credited: false,
  completed_by: 0,
  ...over,
});

const page = (items: unknown[]) => ok({ items, total: items.length, page: 1, page_size: 10 });

function setup(
  options: {
    status?: Partial<StatusDto>;
    handlers?: Record<string, (call: RecordedCall) => unknown>;
    route?: string;
    admin?: boolean;
  } = {},
) {
  const api = mockApi({
    'GET /api/user/self': () => ok(userFixture({ quota: 1_000_000 })),
    'POST /api/user/amount': (call) =>
      ok(((call.body as { amount: number }).amount * 7.3).toFixed(2)),
    'POST /api/user/stripe/amount': (call) =>
      ok(((call.body as { amount: number }).amount * 8).toFixed(2)),
    'GET /api/user/topup/self': () => page([order()]),
    'GET /api/user/topup': () => page([order(), order({ trade_no: 'PAID1', status: 'success' })]),
    ...options.handlers,
  });
  renderWithProviders(<WalletPage />, {
    user: options.admin ? rootUser : ordinaryUser,
    status: options.status ?? { enable_online_topup: true, min_topup: 1 },
    route: options.route ?? '/topup',
  });
  return api;
}

const setAmount = async (value: string) => {
  const input = screen.getByRole('textbox', { name: '充值数量' });
  await userEvent.clear(input);
  await userEvent.type(input, value);
};

afterEach(() => vi.restoreAllMocks());

describe('online top-up', { timeout: 20_000 }, () => {
  it('shows the Epay price of the amount, asked again when the amount moves', async () => {
    const { calls } = setup();
    const price = await screen.findByTestId('epay-price');
    await vi.waitFor(() => expect(price).toHaveTextContent('实付金额：7.30 元'));
    expect(screen.getByRole('slider', { name: '充值数量' })).toHaveAttribute('aria-valuenow', '1');
    await setAmount('5');
    await vi.waitFor(() => expect(price).toHaveTextContent('实付金额：36.50 元'));
    const asked = calls.filter((call) => call.path === '/api/user/amount').at(-1);
    expect(asked?.body).toEqual({ amount: 5 });
  });

  it('opens the pay URL with the signed parameters in a new tab', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => ({ opener: window }) as Window);
    const params = { pid: '1001', out_trade_no: 'USR2NOx', money: '14.60', sign: 'abc' };
    const { calls } = setup({
      handlers: {
        'POST /api/user/pay': () => ({
          ...ok(params),
          url: 'https://pay.example.com/submit.php',
        }),
      },
    });
    await setAmount('2');
    const button = screen.getByRole('button', { name: '支付宝' });
    await userEvent.click(button);
    expect(await screen.findByText('订单创建成功，即将打开支付页面')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/user/pay')?.body).toEqual({
      amount: 2,
      payment_method: 'alipay',
    });
    expect(open).toHaveBeenCalledWith(
      'https://pay.example.com/submit.php?pid=1001&out_trade_no=USR2NOx&money=14.60&sign=abc',
      '_blank',
    );
    // The buttons come back 2 s after the click.
    expect(button).toBeDisabled();
    await vi.waitFor(() => expect(button).toBeEnabled(), { timeout: 3000 });
  });

  it('says the order failed with the server message', async () => {
    setup({ handlers: { 'POST /api/user/pay': () => fail('当前管理员未配置支付信息') } });
    await userEvent.click(await screen.findByRole('button', { name: '微信' }));
    expect(await screen.findByText('订单创建失败 当前管理员未配置支付信息')).toBeInTheDocument();
  });

  it('refuses an amount under the minimum before calling the server', async () => {
    const { calls } = setup({ status: { enable_online_topup: true, min_topup: 3 } });
    await setAmount('2');
    await userEvent.click(screen.getByRole('button', { name: '支付宝' }));
    expect(await screen.findByText('充值数量不能小于 3')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/user/pay')).toBe(false);
  });

  it('shows the Stripe fee, creates the session and opens it 2 s later', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const { calls } = setup({
      status: { enable_stripe_topup: true, stripe_unit_price: 8, stripe_min_topup: 1 },
      handlers: { 'POST /api/user/createStripe': () => ok('https://checkout.stripe.com/c/1') },
    });
    expect(await screen.findByTestId('stripe-fee')).toHaveTextContent(
      'Stripe 手续费约 3% + $0.30，实际到账约 $0.67',
    );
    expect(screen.queryByRole('button', { name: '支付宝' })).not.toBeInTheDocument();
    await setAmount('10');
    await vi.waitFor(() =>
      expect(screen.getByTestId('stripe-price')).toHaveTextContent('实付金额：80.00'),
    );
    expect(screen.getByTestId('stripe-fee')).toHaveTextContent('实际到账约 $9.40');
    await userEvent.click(screen.getByRole('button', { name: 'Stripe' }));
    expect(await screen.findByText('订单创建成功，即将打开支付页面')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/user/createStripe')?.body).toEqual({
      amount: 10,
    });
    expect(open).not.toHaveBeenCalled();
    await vi.waitFor(
      () => expect(open).toHaveBeenCalledWith('https://checkout.stripe.com/c/1', '_blank'),
      { timeout: 3000 },
    );
  });

  it('hides online top-up when neither Epay nor Stripe is set', async () => {
    setup({ status: {} });
    await screen.findByText('$2.00');
    expect(screen.queryByText('在线充值')).not.toBeInTheDocument();
    expect(screen.getByText('超级管理员未设置充值链接！')).toBeInTheDocument();
  });

  it('greets a return from Stripe (session_id) and reads the balance again', async () => {
    const { calls } = setup({ route: '/topup?session_id=cs_test_1' });
    expect(await screen.findByText('支付成功，余额已更新')).toBeInTheDocument();
    await vi.waitFor(() =>
      expect(calls.filter((call) => call.path === '/api/user/self').length).toBeGreaterThan(0),
    );
  });
});

describe('top-up orders', { timeout: 20_000 }, () => {
  it('lists the user their own orders without admin actions', async () => {
    const { calls } = setup();
    const row = await screen.findByTestId('topup-order-USR2NOabc123');
    expect(row).toHaveTextContent('支付宝');
    // Credited quota as money (2 500 000 units at 500 000 a dollar), paid in yuan.
    expect(row).toHaveTextContent('$5.00');
    expect(row).toHaveTextContent('¥36.50');
    expect(row).toHaveTextContent('待支付');
    expect(within(row).queryByRole('button')).not.toBeInTheDocument();
    expect(calls.some((call) => call.method === 'GET' && call.path === '/api/user/topup')).toBe(
      false,
    );
  });

  it('lets an admin filter every order and complete a pending one', async () => {
    const { calls } = setup({
      admin: true,
      handlers: { 'POST /api/user/topup/complete': () => ok(null) },
    });
    const row = await screen.findByTestId('topup-order-USR2NOabc123');
    expect(within(screen.getByTestId('topup-order-PAID1')).queryByRole('button')).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: '用户 ID' }), '2');
    await userEvent.type(screen.getByRole('textbox', { name: '订单号' }), 'USR2');
    await vi.waitFor(() => {
      const last = calls.filter((call) => call.path === '/api/user/topup').at(-1);
      expect(last?.query.get('user_id')).toBe('2');
      expect(last?.query.get('keyword')).toBe('USR2');
    });
    await userEvent.click(within(row).getByRole('button', { name: '补单' }));
    const dialog = await screen.findByRole('dialog', { name: '确认补单' });
    await userEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    expect(await screen.findByText('补单成功')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/user/topup/complete')?.body).toEqual({
      trade_no: 'USR2NOabc123',
    });
  });
});
