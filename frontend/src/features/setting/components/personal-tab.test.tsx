import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getSessionUser } from '@/lib/session';
import { userFixture } from '@/test/fixtures';
import { mockApi, ok } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders } from '@/test/render';
import { PersonalTab } from './personal-tab';

const aliceProfile = userFixture();

const selfHandlers = {
  'GET /api/user/self': () => ok(aliceProfile),
  'GET /api/user/aff': () => ok('Qx7a'),
  'GET /api/user/models': () => ok(['claude-3-haiku', 'gpt-4o-mini']),
  'GET /api/user/self/groups': () =>
    ok({ default: { ratio: 1, desc: '默认分组' }, vip: { ratio: 1.5, desc: 'vip分组' } }),
  'GET /api/user/notices': () => ok({ items: [], total: 0, page: 1, page_size: 5 }),
};

describe('personal tab', () => {
  it('shows the account in dollars when currency display is on', async () => {
    mockApi(selfHandlers);
    renderWithProviders(<PersonalTab />, { route: '/setting', user: ordinaryUser });

    expect(await screen.findByTestId('account-balance')).toHaveTextContent('$2.50');
    expect(screen.getByTestId('account-id')).toHaveTextContent('2');
    expect(screen.getByTestId('account-used')).toHaveTextContent('$0.50');
    expect(screen.getByTestId('account-requests')).toHaveTextContent('42');
    // The models as one list (GET /api/user/models is a list), the groups with label and ratio.
    const models = await screen.findByTestId('usable-models');
    expect(within(models).getByText('gpt-4o-mini')).toBeInTheDocument();
    expect(within(models).getByText('claude-3-haiku')).toBeInTheDocument();
    const groups = await screen.findByTestId('usable-groups');
    expect(groups).toHaveTextContent('default默认分组倍率 1');
    expect(groups).toHaveTextContent('vipvip分组倍率 1.5');
  });

  it('shows quota units in full, grouped, when currency display is off', async () => {
    mockApi(selfHandlers);
    renderWithProviders(<PersonalTab />, {
      route: '/setting',
      user: ordinaryUser,
      status: { display_in_currency: false },
    });
    expect(await screen.findByTestId('account-balance')).toHaveTextContent('1,250,000');
  });

  it('marks a negative balance as a debt', async () => {
    mockApi({ ...selfHandlers, 'GET /api/user/self': () => ok(userFixture({ quota: -1_000 })) });
    renderWithProviders(<PersonalTab />, { route: '/setting', user: ordinaryUser });
    const balance = await screen.findByTestId('account-balance');
    expect(within(balance).getByText('-$0.002')).toHaveStyle({
      color: 'var(--mantine-color-red-text)',
    });
    expect(within(balance).getByTestId('debt-badge')).toHaveTextContent('欠费');
    // Used quota is no balance: never marked.
    expect(within(screen.getByTestId('account-used')).queryByTestId('debt-badge')).toBeNull();
  });

  it('builds the invitation link from the server address and shows the earnings', async () => {
    mockApi(selfHandlers);
    renderWithProviders(<PersonalTab />, {
      route: '/setting',
      user: ordinaryUser,
      status: { server_address: 'https://gate.example.com' },
    });
    const card = await screen.findByTestId('invitation-card');
    const link = await within(card).findByDisplayValue(
      'https://gate.example.com/register?aff=Qx7a',
    );
    expect(link).toBeInTheDocument();
    expect(within(card).getByText('$2.00')).toBeInTheDocument();
    expect(within(card).getByText('$3.00')).toBeInTheDocument();
    expect(within(card).getByText('3')).toBeInTheDocument();
  });

  it('keeps the stored user in step with /self', async () => {
    mockApi({ ...selfHandlers, 'GET /api/user/self': () => ok({ ...aliceProfile, role: 10 }) });
    renderWithProviders(<PersonalTab />, { route: '/setting', user: ordinaryUser });
    await screen.findByTestId('account-balance');
    await vi.waitFor(() => expect(getSessionUser()?.role).toBe(10));
  });
});
