import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { readString, StorageKey, writeString } from '@/lib/storage';
import { userFixture } from '@/test/fixtures';
import { mockApi, ok, type RecordedCall } from '@/test/mock-api';
import { chooseRowMenu, rowMenuItem } from '@/test/row-menu';
import { renderWithProviders, rootUser } from '@/test/render';
import { UsersPage } from './users-page';

const users = [
  userFixture({ id: 1, username: 'root', display_name: 'Root User', role: 100 }),
  userFixture({ id: 2, username: 'alice', role: 1, status: 1 }),
  userFixture({ id: 3, username: 'bob', role: 10, status: 2 }),
  userFixture({ id: 4, username: 'carol', role: 1, status: 3, DeletedAt: '2025-01-01T00:00:00Z' }),
  userFixture({ id: 5, username: 'dave', role: 42 }),
  userFixture({ id: 6, username: 'erin', role: 1, status: 7 }),
  userFixture({ id: 7, username: 'frank', quota: -500_000 }),
];

const page = (call: RecordedCall) =>
  ok({
    items: users,
    total: 95,
    page: Number(call.query.get('p')),
    page_size: Number(call.query.get('page_size')),
  });

const listCalls = (calls: RecordedCall[]) =>
  calls.filter((call) => call.path === '/api/user/' || call.path === '/api/user/search');

function setup(route = '/user', user = rootUser) {
  const api = mockApi({
    'GET /api/user/': page,
    'GET /api/user/search': page,
    'GET /api/group/': () => ok(['default', 'vip']),
    'POST /api/user/manage': () => ok({ role: 10, status: 1 }),
    'POST /api/user/': () => ok(),
  });
  const view = renderWithProviders(<UsersPage />, { route, user });
  return { ...api, ...view };
}

const row = async (username: string) => screen.findByTestId(`user-row-${username}`);

describe('user management', () => {
  it('loads page 1 with the default page size of 10', async () => {
    const { calls } = setup();
    await row('alice');
    const last = listCalls(calls).at(-1);
    expect(last?.path).toBe('/api/user/');
    expect(last?.query.get('p')).toBe('1');
    expect(last?.query.get('page_size')).toBe('10');
    expect(screen.getByText('共 95 条')).toBeInTheDocument();
  });

  it('reads page and page size from the URL', async () => {
    const { calls } = setup('/user?p=3&size=20');
    await row('alice');
    const last = listCalls(calls).at(-1);
    expect(last?.query.get('p')).toBe('3');
    expect(last?.query.get('page_size')).toBe('20');
  });

  it('keeps the page in the URL when paging', async () => {
    const { calls, router } = setup();
    await row('alice');
    await userEvent.click(screen.getByRole('button', { name: '下一页' }));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?p=2'));
    await vi.waitFor(() => expect(listCalls(calls).at(-1)?.query.get('p')).toBe('2'));
    await userEvent.click(screen.getByRole('button', { name: '10' }));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?p=10'));
  });

  it('puts a new page size in the URL, back to page 1, and remembers it', async () => {
    const { calls, router } = setup('/user?p=4');
    await row('alice');
    await userEvent.click(screen.getByRole('combobox', { name: '每页条数' }));
    await userEvent.click(await screen.findByRole('option', { name: '50 条/页' }));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?size=50'));
    expect(readString(StorageKey.usersPageSize)).toBe('50');
    await vi.waitFor(() => expect(listCalls(calls).at(-1)?.query.get('page_size')).toBe('50'));
  });

  it('uses the remembered page size when the URL names none', async () => {
    writeString(StorageKey.usersPageSize, '100');
    const { calls } = setup();
    await row('alice');
    expect(listCalls(calls).at(-1)?.query.get('page_size')).toBe('100');
  });

  it('searches by keyword and group through the URL, from page 1', async () => {
    const { calls, router } = setup('/user?p=5');
    await row('alice');
    await userEvent.type(screen.getByRole('textbox', { name: '搜索关键字' }), 'ali');
    await userEvent.click(screen.getByRole('combobox', { name: '分组' }));
    await userEvent.click(await screen.findByRole('option', { name: 'vip' }));
    await userEvent.click(screen.getByRole('button', { name: '查询' }));

    await vi.waitFor(() => expect(router.state.location.search).toBe('?keyword=ali&group=vip'));
    await vi.waitFor(() => expect(listCalls(calls).at(-1)?.path).toBe('/api/user/search'));
    const last = listCalls(calls).at(-1);
    expect(last?.query.get('keyword')).toBe('ali');
    expect(last?.query.get('group')).toBe('vip');
    expect(last?.query.get('p')).toBe('1');
  });

  it('shows role and status tags', async () => {
    setup();
    expect(within(await row('root')).getByText('超级管理员')).toBeInTheDocument();
    expect(within(await row('alice')).getByText('普通用户')).toBeInTheDocument();
    expect(within(await row('alice')).getByText('已激活')).toBeInTheDocument();
    expect(within(await row('bob')).getByText('管理员')).toBeInTheDocument();
    expect(within(await row('bob')).getByText('已封禁')).toBeInTheDocument();
    expect(within(await row('carol')).getByText('已注销')).toBeInTheDocument();
    expect(within(await row('dave')).getByText('未知身份')).toBeInTheDocument();
  });

  it('offers enable only when not activated and no action once deregistered', async () => {
    setup();
    const alice = await row('alice');
    expect(within(alice).getByRole('button', { name: '禁用' })).toBeInTheDocument();
    expect(within(alice).queryByRole('button', { name: '启用' })).not.toBeInTheDocument();
    const bob = await row('bob');
    expect(within(bob).getByRole('button', { name: '启用' })).toBeInTheDocument();
    const carol = await row('carol');
    // Only the read-only history is left to a deregistered user.
    expect(
      within(carol)
        .getAllByRole('button')
        .map((button) => button.ariaLabel),
    ).toEqual(['更多操作']);
    await userEvent.click(within(carol).getByRole('button', { name: '更多操作' }));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual([
      '历史',
    ]);
  });

  it('shows a negative balance as a debt: red, sign first, with 欠费 beside it', async () => {
    setup();
    const frank = await row('frank');
    const balance = within(frank).getByText('-$1.00').closest('.mantine-Badge-root');
    expect(balance).toHaveStyle({ '--badge-color': 'var(--mantine-color-red-light-color)' });
    expect(within(frank).getByTestId('debt-badge')).toHaveTextContent('欠费');
    const alice = await row('alice');
    expect(within(alice).getByText('$2.50').closest('.mantine-Badge-root')).toHaveStyle({
      '--badge-color': 'var(--mantine-color-blue-light-color)',
    });
    expect(within(alice).queryByTestId('debt-badge')).not.toBeInTheDocument();
  });

  it('shows a status other than 1 or 2 as unknown', async () => {
    setup();
    expect(within(await row('erin')).getByText('未知状态')).toBeInTheDocument();
  });

  it('does not offer what the server refuses: root disabled or deregistered, self edited here', async () => {
    setup();
    const root = await row('root');
    expect(within(root).getByRole('button', { name: '禁用' })).toBeDisabled();
    for (const name of ['注销', '降级', '提升']) {
      expect(await rowMenuItem(root, name)).toBeDisabled();
      await userEvent.keyboard('{Escape}');
    }
    expect(within(root).getByRole('link', { name: '编辑' })).toHaveAttribute('href', '/setting');
    expect(within(await row('alice')).getByRole('link', { name: '编辑' })).toHaveAttribute(
      'href',
      '/user/edit/2',
    );
  });

  it('an administrator may not promote, nor manage another administrator', async () => {
    setup('/user', { ...rootUser, id: 9, username: 'admin', role: 10 });
    const alice = await row('alice');
    expect(await rowMenuItem(alice, '提升')).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(within(alice).getByRole('button', { name: '禁用' })).toBeEnabled();
    const bob = await row('bob');
    expect(within(bob).getByRole('button', { name: '启用' })).toBeDisabled();
    for (const name of ['注销', '降级']) {
      expect(await rowMenuItem(bob, name)).toBeDisabled();
      await userEvent.keyboard('{Escape}');
    }
  });

  it('promotes a user and says so', async () => {
    const { calls } = setup();
    await chooseRowMenu(await row('alice'), '提升');
    expect(await screen.findByText('操作成功完成！')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/user/manage')?.body).toEqual({
      id: 2,
      action: 'promote',
    });
  });

  it('asks before deregistering', async () => {
    const { calls } = setup();
    await chooseRowMenu(await row('alice'), '注销');
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '注销' }));
    await vi.waitFor(() =>
      expect(calls.find((call) => call.path === '/api/user/manage')?.body).toEqual({
        id: 2,
        action: 'delete',
      }),
    );
  });

  it('adds a user, username and password required', async () => {
    const { calls } = setup();
    await row('alice');
    await userEvent.click(screen.getByRole('button', { name: '添加用户' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '提交' }));
    expect(await screen.findByText('请输入用户名和密码！')).toBeInTheDocument();

    await userEvent.type(within(dialog).getByLabelText('用户名'), 'erin');
    await userEvent.type(within(dialog).getByLabelText('密码'), 'erin-password');
    await userEvent.click(within(dialog).getByRole('button', { name: '提交' }));
    expect(await screen.findByText('用户账户创建成功！')).toBeInTheDocument();
    expect(
      calls.find((call) => call.method === 'POST' && call.path === '/api/user/')?.body,
    ).toEqual({
      username: 'erin',
      password: 'erin-password',
    });
  });
});
