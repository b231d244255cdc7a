import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { userFixture } from '@/test/fixtures';
import { fail, mockApi, ok } from '@/test/mock-api';
import { renderWithProviders, rootUser } from '@/test/render';
import { EditUserPage } from './edit-user-page';

const bob = userFixture({ id: 3, username: 'bob', display_name: 'Bob', github_id: 'gh-bob' });

describe('edit user', () => {
  it('edits another user with group, quota and read-only bindings', async () => {
    const { calls } = mockApi({
      'GET /api/user/3': () => ok(bob),
      'GET /api/group/': () => ok(['default', 'vip']),
      'PUT /api/user/': () => ok(),
    });
    const { router } = renderWithProviders(<EditUserPage />, {
      route: '/user/edit/3',
      path: '/user/edit/:id',
      user: rootUser,
    });

    expect(await screen.findByRole('combobox', { name: '分组' })).toHaveValue('default');
    expect(screen.getByLabelText('剩余额度')).toBeInTheDocument();
    expect(screen.getByLabelText('GitHub')).toHaveAttribute('readonly');

    await userEvent.type(screen.getByLabelText('新密码'), 'short');
    await userEvent.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('密码长度不得小于 8 位！')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('新密码'));
    await userEvent.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('用户信息更新成功！')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      id: 3,
      username: 'bob',
      display_name: 'Bob',
      group: 'default',
      remark: '',
    });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/user'));
  });

  it('sends a quota edit with the balance it started from, and shows a refusal', async () => {
    const { calls } = mockApi({
      'GET /api/user/3': () => ok(bob),
      'GET /api/group/': () => ok(['default', 'vip']),
      'PUT /api/user/': () => fail('用户余额已变化，请刷新后重试'),
    });
    renderWithProviders(<EditUserPage />, {
      route: '/user/edit/3',
      path: '/user/edit/:id',
      user: rootUser,
    });
    const quota = await screen.findByLabelText('剩余额度');
    await userEvent.clear(quota);
    await userEvent.type(quota, '2000000');
    await userEvent.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('用户余额已变化，请刷新后重试')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      id: 3,
      quota: 2_000_000,
      expected_quota: 1_250_000,
    });
  });

  it("shows a user's debt under the quota field until a new quota covers it", async () => {
    const { calls } = mockApi({
      'GET /api/user/3': () => ok({ ...bob, quota: -500_000 }),
      'GET /api/group/': () => ok(['default', 'vip']),
      'PUT /api/user/': () => ok(),
    });
    renderWithProviders(<EditUserPage />, {
      route: '/user/edit/3',
      path: '/user/edit/:id',
      user: rootUser,
    });
    const quota = await screen.findByLabelText('剩余额度');
    expect(quota).toHaveValue('-500000');
    const hint = () => quota.closest<HTMLElement>('.mantine-InputWrapper-root')!;
    expect(within(hint()).getByText('-$1.00')).toHaveStyle({
      color: 'var(--mantine-color-red-text)',
    });
    expect(within(hint()).getByTestId('debt-badge')).toHaveTextContent('欠费');

    await userEvent.clear(quota);
    await userEvent.type(quota, '100000');
    expect(hint()).toHaveTextContent('$0.20');
    expect(within(hint()).queryByTestId('debt-badge')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '提交' }));
    await vi.waitFor(() =>
      expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
        quota: 100_000,
        expected_quota: -500_000,
      }),
    );
  });

  it('edits oneself through the self endpoint, without group and quota', async () => {
    const { calls } = mockApi({
      'GET /api/user/self': () =>
        ok(userFixture({ id: 1, username: 'root', display_name: 'Root' })),
      'PUT /api/user/self': () => ok(),
    });
    renderWithProviders(<EditUserPage />, { route: '/user/edit', user: rootUser });

    const name = await screen.findByLabelText('显示名称');
    expect(screen.queryByRole('combobox', { name: '分组' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('剩余额度')).not.toBeInTheDocument();
    expect(screen.getByLabelText('用户名')).toHaveAttribute('readonly');

    await userEvent.clear(name);
    await userEvent.type(name, 'Boss');
    await userEvent.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('用户信息更新成功！')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ display_name: 'Boss' });
  });

  it('sets a budget for another user: period and quota per period, sent only when changed', async () => {
    const { calls } = mockApi({
      'GET /api/user/3': () => ok(bob),
      'GET /api/group/': () => ok(['default', 'vip']),
      'PUT /api/user/': () => ok(),
    });
    renderWithProviders(<EditUserPage />, {
      route: '/user/edit/3',
      path: '/user/edit/:id',
      user: rootUser,
    });
    const period = await screen.findByRole('combobox', { name: '周期预算' });
    const quota = screen.getByLabelText('每周期额度');
    expect(quota).toBeDisabled();
    await userEvent.click(period);
    await userEvent.click(await screen.findByRole('option', { name: '每周' }));
    await userEvent.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('周期额度必须是大于 0 的整数！')).toBeInTheDocument();
    await userEvent.clear(quota);
    await userEvent.type(quota, '500000');
    await userEvent.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('用户信息更新成功！')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      id: 3,
      period: 'week',
      period_quota: 500_000,
    });
  });

  it("shows a user's budget and its use of the period, on their own page too", async () => {
    const reset = Math.floor(Date.now() / 1000) + 3600;
    mockApi({
      'GET /api/user/self': () =>
        ok(
          userFixture({
            id: 1,
            username: 'root',
            period: 'day',
            period_quota: 1_000_000,
            period_used: 250_000,
            period_reset_at: reset,
          }),
        ),
    });
    renderWithProviders(<EditUserPage />, { route: '/user/edit', user: rootUser });
    const use = await screen.findByTestId('user-budget-use');
    expect(use).toHaveTextContent('每日 $0.50 / $2.00');
    expect(use).toHaveTextContent('重置');
    expect(screen.queryByRole('combobox', { name: '周期预算' })).not.toBeInTheDocument();
  });
});
