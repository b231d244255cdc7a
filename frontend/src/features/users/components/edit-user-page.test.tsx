import { screen } from '@testing-library/react';
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
});
