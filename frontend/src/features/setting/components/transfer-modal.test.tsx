import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders } from '@/test/render';
import { TransferModal } from './transfer-modal';

async function transfer(amount: string) {
  const input = await screen.findByLabelText('划转额度');
  await userEvent.clear(input);
  await userEvent.type(input, amount);
  await userEvent.click(screen.getByRole('button', { name: '确定' }));
}

describe('invitation transfer', () => {
  it('refuses less than one quota unit, naming the minimum in dollars', async () => {
    const { calls } = mockApi({});
    renderWithProviders(<TransferModal opened onClose={() => undefined} available={2_000_000} />, {
      user: ordinaryUser,
    });
    await transfer('499999');
    expect(await screen.findByText('划转金额最低为$1.00')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/user/aff_transfer')).toBe(false);
  });

  it('names the minimum in quota units with separators outside currency mode', async () => {
    mockApi({});
    renderWithProviders(<TransferModal opened onClose={() => undefined} available={0} />, {
      user: ordinaryUser,
      status: { display_in_currency: false, quota_per_unit: 500_000 },
    });
    await transfer('10');
    expect(await screen.findByText('划转金额最低为500,000')).toBeInTheDocument();
  });

  it('transfers an amount of at least one unit', async () => {
    const { calls } = mockApi({ 'POST /api/user/aff_transfer': () => ok() });
    renderWithProviders(<TransferModal opened onClose={() => undefined} available={2_000_000} />, {
      user: ordinaryUser,
    });
    await transfer('500000');
    expect(await screen.findByText('划转成功！')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/user/aff_transfer')?.body).toEqual({
      quota: 500000,
    });
  });
});
