import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ChannelsPage } from '@/features/channels';
import { RedemptionsPage } from '@/features/redemptions';
import { TokensPage } from '@/features/tokens';
import { UsersPage } from '@/features/users';
import { channelFixture, redemptionFixture, tokenFixture, userFixture } from '@/test/fixtures';
import { fail, mockApi, ok, type RecordedCall } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders, rootUser } from '@/test/render';
import { chooseRowMenu } from '@/test/row-menu';
import { formatDateTime, parseDateTime } from '@/utils/date-time';
import type { HistoryItem } from '../api/history.api';
import { HistoryButton } from './history-button';
import { OptionsHistoryCard } from './options-history-card';

const users = [
  userFixture({ id: 2, username: 'alice', role: 1 }),
  userFixture({ id: 3, username: 'bob', role: 10 }),
];
const usersPage = () => ok({ items: users, total: 2, page: 1, page_size: 10 });

const ROOT_ACTOR = { kind: 'user', id: 1, username: 'root', role: 100 } as const;
const item = (over: Partial<HistoryItem> & Pick<HistoryItem, 'time' | 'type'>): HistoryItem => ({
  entity: { kind: 'user', id: 2 },
  actor: ROOT_ACTOR,
  changes: [],
  reason: '',
  request_id: '',
  ip: '',
  ...over,
});
const aliceHistory: HistoryItem[] = [
  item({
    time: 1_700_000_300,
    type: 'QuotaAdjusted',
    changes: [{ field: 'quota', before: 500_000, after: 1_500_000, delta: 1_000_000 }],
    reason: '补偿',
    request_id: 'req-quota',
    ip: '203.0.113.9',
  }),
  item({
    time: 1_700_000_200,
    type: 'UserRoleChanged',
    changes: [{ field: 'role', before: 1, after: 10 }],
    request_id: 'req-promote',
    ip: '203.0.113.9',
  }),
  item({
    time: 1_700_000_100,
    type: 'UserPasswordChanged',
    actor: { kind: 'user', id: 2, username: 'alice', role: 1 },
    changes: [{ field: 'password', before: null, after: 'changed', secret: true }],
  }),
  item({
    time: 1_700_000_050,
    type: 'QuotaGranted',
    actor: { kind: 'system', reason: '新用户注册' },
    changes: [{ field: 'quota', before: null, after: null, delta: 500_000 }],
  }),
  item({ time: 1_700_000_000, type: 'SomethingNew', actor: { kind: 'anonymous' } }),
];

const paged =
  (items: HistoryItem[], total = items.length) =>
  (call: RecordedCall) =>
    ok({ items, total, page: Number(call.query.get('p')), page_size: 10 });

const callsTo = (calls: RecordedCall[], path: string) => calls.filter((call) => call.path === path);

function setupUsers(extra: Record<string, (call: RecordedCall) => unknown> = {}) {
  const api = mockApi({
    'GET /api/user/': usersPage,
    'GET /api/group/': () => ok(['default']),
    'GET /api/user/2/history': paged(aliceHistory, 25),
    'GET /api/user/3/history': paged([]),
    ...extra,
  });
  renderWithProviders(<UsersPage />, { route: '/user', user: rootUser });
  return api;
}

async function openHistory(username: string) {
  const row = await screen.findByTestId(`user-row-${username}`);
  await chooseRowMenu(row, '历史');
  return screen.findByRole('dialog', { name: `用户历史：${username}` });
}

describe('history drawer', { timeout: 20_000 }, () => {
  it("shows a user's changes from the users page: promotion and quota with the admin's name", async () => {
    const { calls } = setupUsers();
    const drawer = await openHistory('alice');
    const items = await within(drawer).findAllByTestId('history-item');
    expect(items).toHaveLength(5);

    // Newest first: the quota change (formatted as currency), then the promotion.
    expect(items[0]).toHaveTextContent('额度调整');
    expect(items[0]).toHaveTextContent('root');
    expect(within(items[0]!).getByText('超级管理员')).toBeInTheDocument();
    expect(items[0]).toHaveTextContent('剩余额度: $1.00 → $3.00');
    expect(items[0]).toHaveTextContent('原因：补偿');
    expect(items[0]).toHaveTextContent('请求 ID: req-quota');
    expect(items[0]).toHaveTextContent('IP: 203.0.113.9');
    expect(items[0]).toHaveTextContent(formatDateTime(1_700_000_300));
    expect(items[1]).toHaveTextContent('角色变更');
    expect(items[1]).toHaveTextContent('角色: 普通用户 → 管理员');
    // A secret only as "changed"; an unknown event by its name; the system with its reason.
    expect(items[2]).toHaveTextContent('密码: 已更改');
    expect(items[3]).toHaveTextContent('系统：新用户注册');
    expect(items[3]).toHaveTextContent('剩余额度: +$1.00');
    expect(items[4]).toHaveTextContent('SomethingNew');
    expect(items[4]).toHaveTextContent('匿名');
    expect(items[4]).toHaveTextContent('无字段变化');

    const first = callsTo(calls, '/api/user/2/history').at(-1);
    expect(first?.query.get('p')).toBe('1');
    expect(first?.query.get('page_size')).toBe('10');

    // 25 changes: three pages, 1-based like the other paged lists.
    expect(within(drawer).getByText('共 25 条')).toBeInTheDocument();
    await userEvent.click(within(drawer).getByRole('button', { name: '下一页' }));
    await screen.findByRole('dialog', { name: '用户历史：alice' });
    expect(callsTo(calls, '/api/user/2/history').at(-1)?.query.get('p')).toBe('2');

    // A common user has no "changes made by this admin" tab.
    expect(within(drawer).queryByRole('tab', { name: '此管理员的操作' })).not.toBeInTheDocument();
  });

  it('shows the quota and used quota at a picked instant, and the changes that led there', async () => {
    const { calls } = setupUsers({
      'GET /api/user/2/quota_at': () =>
        ok({
          timestamp: 0,
          history_begins_at: null,
          quota: 1_000_000,
          used_quota: 250_000,
          request_count: 7,
          credited: 1_250_000,
          changes: { items: [aliceHistory[0]], total: 3, page: 1, page_size: 10 },
        }),
    });
    const drawer = await openHistory('alice');
    await userEvent.click(within(drawer).getByRole('tab', { name: '余额回溯' }));
    fireEvent.change(within(drawer).getByLabelText('时刻'), {
      target: { value: '2024-03-01T12:30:15' },
    });
    await userEvent.click(within(drawer).getByRole('button', { name: '查看' }));

    expect(await within(drawer).findByTestId('balance-at-quota')).toHaveTextContent('$2.00');
    expect(within(drawer).getByTestId('balance-at-used')).toHaveTextContent('$0.50');
    expect(within(drawer).getByTestId('balance-at-requests')).toHaveTextContent('7');
    expect(within(drawer).getByText('此前的额度变更')).toBeInTheDocument();
    expect(within(drawer).getByText('更早的 2 条变更见“变更记录”')).toBeInTheDocument();
    expect(within(drawer).getAllByTestId('history-item')[0]).toHaveTextContent('req-quota');
    const call = callsTo(calls, '/api/user/2/quota_at').at(-1);
    expect(call?.query.get('timestamp')).toBe(String(parseDateTime('2024-03-01 12:30:15')));
  });

  it('says the history begins at the import for an instant before an imported user existed here', async () => {
    setupUsers({
      'GET /api/user/2/quota_at': () =>
        ok({
          timestamp: 0,
          history_begins_at: parseDateTime('2026-11-01 08:00:00'),
          quota: null,
          used_quota: null,
          request_count: null,
          credited: null,
          changes: { items: [], total: 0, page: 1, page_size: 10 },
        }),
    });
    const drawer = await openHistory('alice');
    await userEvent.click(within(drawer).getByRole('tab', { name: '余额回溯' }));
    await userEvent.click(within(drawer).getByRole('button', { name: '查看' }));
    expect(await within(drawer).findByTestId('balance-at-result')).toHaveTextContent(
      '该时刻早于导入：记录从 2026-11-01 08:00:00 导入时开始，此前的额度未知',
    );
    expect(within(drawer).queryByTestId('balance-at-quota')).not.toBeInTheDocument();
  });

  it("lists what an admin did in a time range (who-did-what) from the admin's drawer", async () => {
    const { calls } = setupUsers({
      'GET /api/history': paged([
        { ...aliceHistory[1]!, actor: { kind: 'user', id: 3, username: 'bob', role: 10 } },
      ]),
    });
    const drawer = await openHistory('bob');
    await userEvent.click(within(drawer).getByRole('tab', { name: '此管理员的操作' }));
    const row = await within(drawer).findByTestId('history-item');
    expect(row).toHaveTextContent('对象: 用户 #2');
    expect(row).toHaveTextContent('bob');
    const first = callsTo(calls, '/api/history').at(-1);
    expect(first?.query.get('actor_id')).toBe('3');
    expect(Number(first?.query.get('start_timestamp'))).toBeGreaterThan(0);
    expect(first?.query.has('end_timestamp')).toBe(false);

    fireEvent.change(within(drawer).getByLabelText('结束时间'), {
      target: { value: '2024-05-01T00:00' },
    });
    await userEvent.click(within(drawer).getByRole('button', { name: '查询' }));
    await within(drawer).findByTestId('history-item');
    const last = callsTo(calls, '/api/history').at(-1);
    expect(last?.query.get('end_timestamp')).toBe(String(parseDateTime('2024-05-01 00:00')));
  });

  it("shows a token's history and its remaining quota at an instant", async () => {
    const { calls } = mockApi({
      'GET /api/token/7/history': paged([
        item({
          time: 1_700_000_000,
          type: 'TokenUpdated',
          entity: { kind: 'token', id: 7 },
          actor: { kind: 'user', id: 2, username: 'alice', role: 1 },
          changes: [{ field: 'name', before: 'old', after: 'laptop' }],
        }),
      ]),
      'GET /api/token/7/quota_at': (call) =>
        ok({
          timestamp: Number(call.query.get('timestamp')),
          existed: true,
          history_begins_at: null,
          remain_quota: 250_000,
          used_quota: 0,
          unlimited_quota: false,
        }),
    });
    renderWithProviders(<HistoryButton subject={{ kind: 'token', id: 7 }} name="laptop" />, {
      user: ordinaryUser,
    });
    await userEvent.click(screen.getByRole('button', { name: 'laptop 的历史' }));
    const drawer = await screen.findByRole('dialog', { name: '令牌历史：laptop' });
    expect(await within(drawer).findByTestId('history-item')).toHaveTextContent(
      '名称: old → laptop',
    );
    await userEvent.click(within(drawer).getByRole('tab', { name: '余额回溯' }));
    await userEvent.click(within(drawer).getByRole('button', { name: '查看' }));
    expect(await within(drawer).findByTestId('balance-at-remain')).toHaveTextContent('$0.50');
    expect(callsTo(calls, '/api/token/7/quota_at')).toHaveLength(1);
  });

  it("shows a common user their own history without admins' names", async () => {
    const { calls } = mockApi({
      'GET /api/user/self/history': paged([
        item({
          time: 1_700_000_000,
          type: 'QuotaAdjusted',
          actor: { kind: 'user', role: 10 },
          changes: [{ field: 'quota', before: 0, after: 500_000, delta: 500_000 }],
        }),
      ]),
    });
    renderWithProviders(
      <HistoryButton variant="button" label="账户历史" subject={{ kind: 'user', id: 'self' }} />,
      { user: ordinaryUser },
    );
    await userEvent.click(screen.getByRole('button', { name: '账户历史' }));
    const drawer = await screen.findByRole('dialog', { name: '我的账户历史' });
    const actor = await within(drawer).findByTestId('history-actor');
    expect(actor).toHaveTextContent(/^管理员$/);
    expect(within(drawer).getByTestId('history-item')).toHaveTextContent('$0.00 → $1.00');
    expect(callsTo(calls, '/api/user/self/history')).toHaveLength(1);
  });

  it("says why a history cannot be read (the server's message)", async () => {
    mockApi({ 'GET /api/channel/9/history': () => fail('无权进行此操作') });
    renderWithProviders(<HistoryButton subject={{ kind: 'channel', id: 9 }} name="azure" />, {
      user: rootUser,
    });
    await userEvent.click(screen.getByRole('button', { name: 'azure 的历史' }));
    const drawer = await screen.findByRole('dialog', { name: '渠道历史：azure' });
    expect(await within(drawer).findByText('无权进行此操作')).toBeInTheDocument();
    expect(within(drawer).getByText('历史记录加载失败')).toBeInTheDocument();
  });

  it('the settings history card lists option changes by their setting labels, secrets only as changed', async () => {
    mockApi({
      'GET /api/option/history': paged([
        item({
          time: 1_700_000_000,
          type: 'OptionChanged',
          entity: { kind: 'option', id: 0 },
          changes: [
            { field: 'SystemName', before: 'One API', after: 'Tollgate' },
            { field: 'SomeFutureOption', before: 'a', after: 'b' },
          ],
        }),
        item({
          time: 1_699_999_000,
          type: 'SecretOptionChanged',
          entity: { kind: 'option', id: 0 },
          changes: [{ field: 'SMTPToken', before: null, after: 'changed', secret: true }],
        }),
      ]),
    });
    renderWithProviders(<OptionsHistoryCard />, { user: rootUser });
    const card = screen.getByRole('region', { name: '设置变更历史' });
    const items = await within(card).findAllByTestId('history-item');
    expect(items[0]).toHaveTextContent('系统名称: One API → Tollgate');
    // An option the settings page does not label keeps its key.
    expect(items[0]).toHaveTextContent('SomeFutureOption: a → b');
    expect(items[1]).toHaveTextContent('SMTP 访问凭证: 已更改');
    expect(items[1]).toHaveTextContent('密钥设置修改');
  });

  it('opens from the token, code and channel rows; a token that did not exist yet says so', async () => {
    const handlers: Record<string, (call: RecordedCall) => unknown> = {
      'GET /api/token/5/history': paged([]),
      'GET /api/token/5/quota_at': (call) =>
        ok({
          timestamp: Number(call.query.get('timestamp')),
          existed: false,
          remain_quota: 0,
          used_quota: 0,
          unlimited_quota: false,
        }),
      'GET /api/redemption/6/history': paged([]),
      'GET /api/channel/8/history': paged([]),
    };
    const { calls } = mockApi(handlers);
    const rows = (kind: string) => () =>
      ok(
        kind === 'redemption'
          ? {
              items: [redemptionFixture({ id: 6, name: 'promo' })],
              total: 1,
              page: 1,
              page_size: 10,
            }
          : kind === 'token'
            ? [tokenFixture({ id: 5, name: 'ci' })]
            : [channelFixture({ id: 8, name: 'azure-east' })],
      );
    Object.assign(handlers, {
      'GET /api/token/': rows('token'),
      'GET /api/redemption/': rows('redemption'),
      'GET /api/channel/': rows('channel'),
      'GET /api/group/': () => ok(['default']),
      'GET /api/user/models': () => ok([]),
      'GET /api/user/self/groups': () => ok({}),
    });
    const first = renderWithProviders(<TokensPage />, { route: '/token', user: rootUser });
    await userEvent.click(await screen.findByRole('button', { name: '更多操作' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: '历史' }));
    let drawer = await screen.findByRole('dialog', { name: '令牌历史：ci' });
    expect(await within(drawer).findByText('暂无历史记录')).toBeInTheDocument();
    await userEvent.click(within(drawer).getByRole('tab', { name: '余额回溯' }));
    await userEvent.click(within(drawer).getByRole('button', { name: '查看' }));
    expect(await within(drawer).findByText('该时刻令牌尚未创建')).toBeInTheDocument();
    first.unmount();

    const second = renderWithProviders(<RedemptionsPage />, {
      route: '/redemption',
      user: rootUser,
    });
    await userEvent.click(await screen.findByRole('button', { name: '更多操作' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: '历史' }));
    drawer = await screen.findByRole('dialog', { name: '兑换码历史：promo' });
    await within(drawer).findByText('暂无历史记录');
    // Codes have no balance-at view.
    expect(within(drawer).queryByRole('tab', { name: '余额回溯' })).not.toBeInTheDocument();
    second.unmount();

    renderWithProviders(<ChannelsPage />, { route: '/channel', user: rootUser });
    await userEvent.click(await screen.findByRole('button', { name: '更多操作' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: '历史' }));
    drawer = await screen.findByRole('dialog', { name: '渠道历史：azure-east' });
    await within(drawer).findByText('暂无历史记录');
    for (const path of [
      '/api/token/5/history',
      '/api/redemption/6/history',
      '/api/channel/8/history',
    ])
      expect(callsTo(calls, path)).toHaveLength(1);
  });
});
