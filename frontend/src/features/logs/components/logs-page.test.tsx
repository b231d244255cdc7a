import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { readString, StorageKey, writeString } from '@/lib/storage';
import { formatDateTime, parseDateTime, startOfDay } from '@/utils/date-time';
import { logFixture, userFixture } from '@/test/fixtures';
import { mockApi, ok, type RecordedCall } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders, rootUser } from '@/test/render';
import { LogsPage } from './logs-page';

const logs = [
  logFixture({ id: 1, type: 1, content: '通过兑换码充值 $1.00' }),
  logFixture({
    id: 2,
    type: 2,
    token_name: 'laptop',
    model_name: 'gpt-4o-mini',
    use_time: 150,
    is_stream: true,
    prompt_tokens: 12,
    completion_tokens: 34,
    quota: 2_500,
    channel: 3,
    channel_name: 'azure-east',
    group: 'vip',
    retry: '3,4',
    other: JSON.stringify({
      frt: 4200,
      model_ratio: 0.075,
      completion_ratio: 4,
      group_ratio: 1,
      cache_tokens: 8,
      cache_ratio: 0.1,
      cache_creation_tokens: 3,
      cache_creation_ratio: 1.25,
      reasoning_tokens: 5,
    }),
  }),
  logFixture({
    id: 3,
    type: 3,
    quota: 0,
    content: '管理员将用户额度从 $1.00 修改为 $2.00',
    other: JSON.stringify({ admin_info: { admin_username: 'root' } }),
  }),
  logFixture({ id: 4, type: 4, quota: 0, content: '新用户注册赠送 $1.00' }),
];

const page =
  (more: Record<string, unknown> = {}) =>
  (call: RecordedCall) =>
    ok({ items: logs, total: 4, page: Number(call.query.get('p')), page_size: 10, ...more });
const stat = () => ok({ quota: 1_000_000, rpm: 7, tpm: 1234 });

function setup(user = ordinaryUser, route = '/log', pageFields: Record<string, unknown> = {}) {
  const api = mockApi({
    'GET /api/log/': page(pageFields),
    'GET /api/log/self/': page(pageFields),
    'GET /api/log/stat': stat,
    'GET /api/log/self/stat': stat,
    'GET /api/user/2': () => ok(userFixture({ id: 2, username: 'alice' })),
  });
  const view = renderWithProviders(<LogsPage />, { route, user });
  return { ...api, ...view };
}

const listCalls = (calls: RecordedCall[]) =>
  calls.filter((call) => call.path === '/api/log/' || call.path === '/api/log/self/');
const row = (id: number) => screen.findByTestId(`log-row-${id}`);
/** Unfolds a row's details (pricing, content); resolves to them. */
async function details(id: number) {
  await userEvent.click(within(await row(id)).getByRole('button', { name: '展开详情' }));
  return screen.findByTestId(`log-detail-${id}`);
}

describe('log page', { timeout: 20_000 }, () => {
  it('shows the summary badges and a user only their own rows, without admin filters', async () => {
    const { calls } = setup();
    await row(1);
    expect(screen.getByText('消耗额度：$2.00')).toBeInTheDocument();
    expect(screen.getByText('RPM：7')).toBeInTheDocument();
    expect(screen.getByText('TPM：1234')).toBeInTheDocument();
    expect(screen.queryByText(/之前的调用日志已归档/)).not.toBeInTheDocument();
    expect(listCalls(calls).at(-1)?.path).toBe('/api/log/self/');
    expect(calls.some((call) => call.path === '/api/log/self/stat')).toBe(true);
    expect(screen.queryByRole('textbox', { name: '渠道 ID' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: '用户名称' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: '渠道' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: '重试' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: '分组' })).not.toBeInTheDocument();
    expect(listCalls(calls).at(-1)?.query.has('username')).toBe(false);
  });

  it('says where the log begins once older calls were archived, and nothing before', async () => {
    const archivedBefore = Math.floor(Date.parse('2026-01-15T09:00:00Z') / 1000);
    setup(ordinaryUser, '/log', { retained_from: archivedBefore });
    await row(1);
    const line = `${formatDateTime(archivedBefore)} 之前的调用日志已归档`;
    expect(screen.getByText(line)).toBeInTheDocument();
  });

  it('defaults the range to today’s start, open-ended, showing now + 1 hour as the end', async () => {
    const { calls } = setup();
    await row(1);
    const query = listCalls(calls).at(-1)?.query;
    const now = Math.floor(Date.now() / 1000);
    expect(Number(query?.get('start_timestamp'))).toBe(startOfDay(now));
    expect(query?.has('end_timestamp')).toBe(false);
    expect(screen.getByRole('textbox', { name: '起始时间' })).toHaveValue(
      formatDateTime(startOfDay(now)),
    );
    const shownEnd = screen.getByRole<HTMLInputElement>('textbox', { name: '结束时间' }).value;
    expect(Math.abs((parseDateTime(shownEnd) ?? 0) - (now + 3600))).toBeLessThan(5);
    expect(query?.get('p')).toBe('1');
    expect(query?.get('page_size')).toBe('10');
  });

  it('tags every type and colours consumption latency', async () => {
    setup();
    expect(within(await row(1)).getByText('充值')).toBeInTheDocument();
    expect(screen.queryByText('通过兑换码充值 $1.00')).not.toBeInTheDocument();
    expect(within(await details(1)).getByText('通过兑换码充值 $1.00')).toBeInTheDocument();
    const consume = await row(2);
    expect(within(consume).getByText('消费')).toBeInTheDocument();
    const badge = (text: string) => within(consume).getByText(text).closest('[data-color]');
    expect(badge('150 s')).toHaveAttribute('data-color', 'orange');
    expect(badge('首字 4.2 s')).toHaveAttribute('data-color', 'orange');
    expect(within(consume).getByText('流')).toBeInTheDocument();
    const receipt = await details(2);
    expect(within(receipt).getByText('模型倍率 0.075，补全倍率 4，分组倍率 1')).toBeInTheDocument();
    // The receipt's cache and reasoning counts.
    expect(within(receipt).getByText('缓存读取 8 tokens × 0.1')).toBeInTheDocument();
    expect(within(receipt).getByText('缓存创建 3 tokens × 1.25')).toBeInTheDocument();
    expect(within(receipt).getByText('推理 5 tokens（按补全计费）')).toBeInTheDocument();
    expect(within(await row(3)).getByText('管理')).toBeInTheDocument();
    // The admin's name is for admins only.
    expect(within(await details(3)).queryByText('操作管理员：root')).not.toBeInTheDocument();
    expect(within(await row(4)).getByText('系统')).toBeInTheDocument();
  });

  it('filters by type through the dropdown, from page 1', async () => {
    const { calls, router } = setup(ordinaryUser, '/log?p=2');
    await row(1);
    await userEvent.click(screen.getByRole('combobox', { name: '日志类型' }));
    await userEvent.click(await screen.findByRole('option', { name: '充值' }));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?type=1'));
    await vi.waitFor(() => expect(listCalls(calls).at(-1)?.query.get('type')).toBe('1'));
    expect(listCalls(calls).at(-1)?.query.get('p')).toBe('1');
  });

  it('searches by token, model and time range; a bad time is refused', async () => {
    const { calls, router } = setup();
    await row(1);
    await userEvent.type(screen.getByRole('textbox', { name: '令牌名称' }), ' laptop ');
    await userEvent.type(screen.getByRole('textbox', { name: '模型名称' }), 'gpt-4o');
    const start = screen.getByRole('textbox', { name: '起始时间' });
    await userEvent.clear(start);
    await userEvent.type(start, 'yesterday');
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    expect(await screen.findByText('时间格式错误！')).toBeInTheDocument();

    const from = new Date(2026, 0, 1).getTime() / 1000;
    await userEvent.clear(start);
    await userEvent.type(start, formatDateTime(from));
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    await vi.waitFor(() => expect(router.state.location.search).toContain('token_name=laptop'));
    await vi.waitFor(() =>
      expect(listCalls(calls).at(-1)?.query.get('start_timestamp')).toBe(String(from)),
    );
    const query = listCalls(calls).at(-1)?.query;
    expect(query?.get('token_name')).toBe('laptop');
    expect(query?.get('model_name')).toBe('gpt-4o');
  });

  it('remembers the page size', async () => {
    writeString(StorageKey.logsPageSize, '50');
    const { calls } = setup();
    await row(1);
    expect(listCalls(calls).at(-1)?.query.get('page_size')).toBe('50');
    await userEvent.click(screen.getByRole('combobox', { name: '每页条数' }));
    await userEvent.click(await screen.findByRole('option', { name: '100 条/页' }));
    await vi.waitFor(() => expect(readString(StorageKey.logsPageSize)).toBe('100'));
  });

  it('gives admins every row, the admin filters and columns, and the user popup', async () => {
    const { calls } = setup(rootUser);
    await row(1);
    expect(listCalls(calls).at(-1)?.path).toBe('/api/log/');
    expect(calls.some((call) => call.path === '/api/log/stat')).toBe(true);
    expect(screen.getByRole('columnheader', { name: '渠道' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: '重试' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: '分组' })).toBeInTheDocument();
    expect(within(await row(2)).getByText('azure-east')).toBeInTheDocument();
    expect(within(await row(2)).getByText('vip')).toBeInTheDocument();
    expect(within(await details(3)).getByText('操作管理员：root')).toBeInTheDocument();

    await userEvent.type(screen.getByRole('textbox', { name: '用户名称' }), 'alice');
    await userEvent.type(screen.getByRole('textbox', { name: '渠道 ID' }), '3');
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    await vi.waitFor(() => expect(listCalls(calls).at(-1)?.query.get('username')).toBe('alice'));
    expect(listCalls(calls).at(-1)?.query.get('channel')).toBe('3');

    await userEvent.click(within(await row(1)).getByRole('button', { name: 'alice' }));
    const dialog = await screen.findByRole('dialog', { name: '用户信息' });
    expect(await within(dialog).findByText('$2.50')).toBeInTheDocument();
    expect(within(dialog).getByText('42')).toBeInTheDocument();
  });
});
