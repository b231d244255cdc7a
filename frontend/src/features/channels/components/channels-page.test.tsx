import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ChannelDto } from '@tollgate/contracts';
import { describe, expect, it, vi } from 'vitest';
import { readString, StorageKey, writeString } from '@/lib/storage';
import { channelFixture } from '@/test/fixtures';
import { fail, mockApi, ok, type RecordedCall } from '@/test/mock-api';
import { renderWithProviders, rootUser } from '@/test/render';
import { ChannelsPage } from './channels-page';

const channels: ChannelDto[] = [
  channelFixture({ id: 1, name: 'openai-main', group: 'default,vip', response_time: 800 }),
  channelFixture({ id: 2, name: 'claude', type: 14, status: 2, response_time: 2500 }),
  channelFixture({
    id: 3,
    name: 'flaky',
    status: 3,
    response_time: 4200,
    other_info: JSON.stringify({ status_reason: 'invalid api key', status_time: 1_700_000_100 }),
  }),
  channelFixture({ id: 4, name: 'slow', type: 0, response_time: 7000, balance: 12.5 }),
  channelFixture({ id: 5, name: 'fresh', type: 41 }),
];

const perf = { answered: 9, failed: 1, p99_ms: 760, ttft_p50_ms: null, ttft_p99_ms: null };
const performance = [
  { ...perf, channel_id: 1, channel_name: 'openai-main', model: 'gpt-4o', calls: 10 },
  { ...perf, channel_id: 1, channel_name: 'openai-main', model: 'gpt-4o-mini', calls: 4 },
].map((row) => ({ ...row, error_rate: row.failed / row.calls, share: 0.5, p50_ms: 338 }));

const listCalls = (calls: RecordedCall[]) =>
  calls.filter((call) => call.path === '/api/channel/' || call.path === '/api/channel/search');
const callsTo = (calls: RecordedCall[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path);

function setup(
  route = '/channel',
  overrides: Record<string, (call: RecordedCall) => unknown> = {},
  rows: ChannelDto[] = channels,
) {
  const api = mockApi({
    'GET /api/channel/': () => ok(rows),
    'GET /api/channel/search': () => ok(rows.slice(0, 1)),
    'GET /api/group/': () => ok(['default', 'vip']),
    'PUT /api/channel/': () => ok(),
    'POST /api/channel/batch': (call) => ok((call.body as { ids: number[] }).ids.length),
    'DELETE /api/channel/disabled': () => ok(2),
    'POST /api/channel/fix': () => ok(3),
    'GET /api/channel/test': () => ok(),
    'GET /api/channel/update_balance': () => ok(),
    'GET /api/channel/test/1': () => ({ success: true, message: '', time: 1.234 }),
    'GET /api/channel/update_balance/1/': () => ({ success: true, message: '', balance: 9.5 }),
    'POST /api/channel/copy/1': () => ok({ id: 6 }),
    'DELETE /api/channel/1/': () => ok(),
    'GET /api/channel/performance': () => ok(performance),
    ...overrides,
  });
  const view = renderWithProviders(<ChannelsPage />, { route, user: rootUser });
  return { ...api, ...view };
}

const row = (id: number) => screen.findByTestId(`channel-row-${id}`);
/** Enable / disable, update balance, copy and delete sit in the row's "more" menu. */
async function chooseMore(id: number, action: string) {
  await userEvent.click(within(await row(id)).getByRole('button', { name: '更多操作' }));
  await userEvent.click(await screen.findByRole('menuitem', { name: action }));
}

describe('channel management: list', () => {
  it('loads the first page (0-based p) with the default page size and no ID sort', async () => {
    const { calls } = setup();
    await row(1);
    expect(screen.getByRole('heading', { name: '管理渠道' })).toBeInTheDocument();
    const last = listCalls(calls).at(-1);
    expect(last?.path).toBe('/api/channel/');
    expect(last?.query.get('p')).toBe('0');
    expect(last?.query.get('page_size')).toBe('10');
    expect(last?.query.get('id_sort')).toBe('false');
  });

  it("shows each channel's models over the last hour: p50, error rate, share", async () => {
    const { calls } = setup();
    const cell = await within(await row(1)).findByTestId('channel-performance');
    expect(within(cell).getByText('gpt-4o：p50 338 ms · 错误 10.0% · 份额 50.0%')).toBeVisible();
    expect(
      within(cell).getByText('gpt-4o-mini：p50 338 ms · 错误 25.0% · 份额 50.0%'),
    ).toBeVisible();
    expect(within(await row(2)).getByText('无调用')).toBeInTheDocument();
    expect(callsTo(calls, 'GET', '/api/channel/performance')[0]?.query.get('window')).toBe('60');
  });

  it('maps the 1-based page of the URL to the 0-based page of the API', async () => {
    const { calls } = setup('/channel?p=3&size=20');
    await row(1);
    const last = listCalls(calls).at(-1);
    expect(last?.query.get('p')).toBe('2');
    expect(last?.query.get('page_size')).toBe('20');
  });

  it('offers a next page only when the page came back full', async () => {
    const full = Array.from({ length: 10 }, (_, index) =>
      channelFixture({ id: index + 1, name: `c${index + 1}` }),
    );
    const { calls, router } = setup('/channel', {}, full);
    await row(1);
    await userEvent.click(screen.getByRole('button', { name: '下一页' }));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?p=2'));
    await vi.waitFor(() => expect(listCalls(calls).at(-1)?.query.get('p')).toBe('1'));
  });

  it('has no next page after a short page', async () => {
    setup();
    await row(1);
    expect(screen.getByRole('button', { name: '下一页' })).toBeDisabled();
  });

  it('remembers the page size and the ID-sort switch', async () => {
    const { calls, router } = setup('/channel?p=2');
    await row(1);
    await userEvent.click(screen.getByRole('combobox', { name: '每页条数' }));
    await userEvent.click(await screen.findByRole('option', { name: '50 条/页' }));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?size=50'));
    expect(readString(StorageKey.channelsPageSize)).toBe('50');

    await userEvent.click(screen.getByRole('switch', { name: '使用 ID 排序' }));
    await vi.waitFor(() => expect(listCalls(calls).at(-1)?.query.get('id_sort')).toBe('true'));
    expect(readString(StorageKey.channelsIdSort)).toBe('true');
  });

  it('starts with the remembered page size and ID sort', async () => {
    writeString(StorageKey.channelsPageSize, '100');
    writeString(StorageKey.channelsIdSort, 'true');
    const { calls } = setup();
    await row(1);
    expect(listCalls(calls).at(-1)?.query.get('page_size')).toBe('100');
    expect(listCalls(calls).at(-1)?.query.get('id_sort')).toBe('true');
    expect(screen.getByRole('switch', { name: '使用 ID 排序' })).toBeChecked();
  });

  it('searches by keyword, model and group through the URL', async () => {
    const { calls, router } = setup('/channel?p=4');
    await row(1);
    await userEvent.type(screen.getByRole('textbox', { name: '搜索关键字' }), 'open');
    await userEvent.type(screen.getByRole('textbox', { name: '模型' }), 'gpt-4o');
    await userEvent.click(screen.getByRole('combobox', { name: '分组' }));
    await userEvent.click(await screen.findByRole('option', { name: 'vip' }));
    await userEvent.click(screen.getByRole('button', { name: '查询' }));

    await vi.waitFor(() =>
      expect(router.state.location.search).toBe('?keyword=open&model=gpt-4o&group=vip'),
    );
    await vi.waitFor(() => expect(listCalls(calls).at(-1)?.path).toBe('/api/channel/search'));
    const last = listCalls(calls).at(-1);
    expect(last?.query.get('keyword')).toBe('open');
    expect(last?.query.get('model')).toBe('gpt-4o');
    expect(last?.query.get('group')).toBe('vip');
    expect(last?.query.get('p')).toBe('0');
  });

  it('shows type names, group tags and status tags; disabled rows are greyed', async () => {
    setup();
    const first = await row(1);
    expect(within(first).getByText('OpenAI')).toBeInTheDocument();
    expect(within(first).getByText('vip')).toBeInTheDocument();
    expect(within(first).getByText('已启用')).toBeInTheDocument();
    expect(first).not.toHaveAttribute('data-disabled');
    const second = await row(2);
    expect(within(second).getByText('Anthropic Claude')).toBeInTheDocument();
    expect(within(second).getByText('已禁用')).toBeInTheDocument();
    expect(second).toHaveAttribute('data-disabled', 'true');
    expect(within(await row(3)).getByText('自动禁用')).toBeInTheDocument();
    expect(await row(3)).toHaveAttribute('data-disabled', 'true');
    expect(within(await row(4)).getByText('未知类型')).toBeInTheDocument();
  });

  it('explains an automatic disable in a tooltip', async () => {
    setup();
    await userEvent.hover(within(await row(3)).getByText('自动禁用'));
    expect(await screen.findByText('原因：invalid api key')).toBeInTheDocument();
    expect(screen.getByText(/^时间：/)).toBeInTheDocument();
  });

  it('colours the response time in its bands', async () => {
    setup();
    const band = async (id: number) =>
      within(await row(id))
        .getByText(/秒|未测试/)
        .closest('[data-band]')
        ?.getAttribute('data-band');
    expect(await band(1)).toBe('green');
    expect(await band(2)).toBe('lime');
    expect(await band(3)).toBe('yellow');
    expect(await band(4)).toBe('red');
    expect(await band(5)).toBe('untested');
    expect(within(await row(1)).getByText('0.80 秒')).toBeInTheDocument();
    expect(within(await row(4)).getByText('$12.50')).toBeInTheDocument();
  });
});

describe('channel management: row edits and actions', () => {
  it('saves priority and weight in the row, clamped, ignoring empty values', async () => {
    const { calls } = setup();
    const priority = within(await row(1)).getByRole('textbox', {
      name: '渠道 openai-main 的优先级',
    });
    await userEvent.clear(priority);
    await userEvent.type(priority, '-5000{Enter}');
    await vi.waitFor(() =>
      expect(callsTo(calls, 'PUT', '/api/channel/').at(-1)?.body).toEqual({
        id: 1,
        priority: -999,
      }),
    );
    expect(await screen.findByText('操作成功完成！')).toBeInTheDocument();

    const weight = within(await row(1)).getByRole('textbox', { name: '渠道 openai-main 的权重' });
    await userEvent.clear(weight);
    await userEvent.type(weight, '-3{Enter}');
    // 0 is the stored weight already: clamping -3 leaves nothing to save.
    await userEvent.clear(weight);
    await userEvent.tab();
    await userEvent.type(weight, '7{Enter}');
    await vi.waitFor(() =>
      expect(callsTo(calls, 'PUT', '/api/channel/').at(-1)?.body).toEqual({ id: 1, weight: 7 }),
    );
    expect(callsTo(calls, 'PUT', '/api/channel/')).toHaveLength(2);
  });

  it('disables and enables a channel', async () => {
    const { calls } = setup();
    await chooseMore(1, '禁用');
    await vi.waitFor(() =>
      expect(callsTo(calls, 'PUT', '/api/channel/').at(-1)?.body).toEqual({ id: 1, status: 2 }),
    );
    await chooseMore(2, '启用');
    await vi.waitFor(() =>
      expect(callsTo(calls, 'PUT', '/api/channel/').at(-1)?.body).toEqual({ id: 2, status: 1 }),
    );
  });

  it('tests a channel, with the default model or a chosen one, and shows the time', async () => {
    const { calls } = setup();
    await userEvent.click(within(await row(1)).getByRole('button', { name: '测试' }));
    expect(
      await screen.findByText('渠道 openai-main 测试成功，耗时 1.23 秒。'),
    ).toBeInTheDocument();
    expect(callsTo(calls, 'GET', '/api/channel/test/1')[0]?.query.get('model')).toBeNull();

    await userEvent.click(within(await row(1)).getByRole('button', { name: '选择测试模型' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'gpt-4o-mini' }));
    await vi.waitFor(() =>
      expect(callsTo(calls, 'GET', '/api/channel/test/1').at(-1)?.query.get('model')).toBe(
        'gpt-4o-mini',
      ),
    );
  });

  it('names the channel and says why when a test fails, the upstream text second', async () => {
    setup('/channel', {
      'GET /api/channel/test/1': () => ({
        success: false,
        message: 'Incorrect API key provided',
        status_code: 401,
        time: 0.2,
      }),
    });
    await userEvent.click(within(await row(1)).getByRole('button', { name: '测试' }));
    expect(
      await screen.findByText('渠道 openai-main 测试失败：上游拒绝了密钥（401），请检查渠道密钥'),
    ).toBeInTheDocument();
    expect(screen.getByText('原始信息：Incorrect API key provided')).toBeInTheDocument();
  });

  it('shows a failed test as failed, never as a time', async () => {
    setup('/channel', {}, [
      channelFixture({
        id: 1,
        name: 'openai-main',
        response_time: 0,
        test_time: 1_764_000_000,
        test_failed: true,
        last_failure_time: 1_764_000_000,
        last_failure_reason: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:4598',
      }),
    ]);
    const cell = await row(1);
    expect(within(cell).getByText('失败')).toBeInTheDocument();
    expect(within(cell).queryByText('0.00 秒')).toBeNull();
    expect(within(cell).getByTestId('channel-last-failure')).toBeInTheDocument();
  });

  it('updates one balance', async () => {
    const { calls } = setup();
    await chooseMore(1, '更新余额');
    expect(await screen.findByText('渠道 openai-main 余额更新成功！')).toBeInTheDocument();
    expect(callsTo(calls, 'GET', '/api/channel/update_balance/1/')).toHaveLength(1);
  });

  it('copies a channel after asking, and names a failure', async () => {
    setup('/channel', {
      'POST /api/channel/copy/2': () => fail('渠道不存在'),
    });
    await chooseMore(1, '复制');
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: '复制' }),
    );
    expect(await screen.findByText('渠道复制成功')).toBeInTheDocument();

    await chooseMore(2, '复制');
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: '复制' }),
    );
    expect(await screen.findByText('渠道复制失败：渠道不存在')).toBeInTheDocument();
  });

  it('deletes a channel after asking', async () => {
    const { calls } = setup();
    await chooseMore(1, '删除');
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: '删除' }),
    );
    await vi.waitFor(() => expect(callsTo(calls, 'DELETE', '/api/channel/1/')).toHaveLength(1));
    expect(await screen.findByText('操作成功完成！')).toBeInTheDocument();
  });
});

describe('channel management: batch actions', () => {
  it('asks for a selection before a batch delete, then deletes the selected ones', async () => {
    const { calls } = setup();
    await row(1);
    await userEvent.click(screen.getByRole('button', { name: '删除所选通道' }));
    expect(await screen.findByText('请先选择要删除的通道！')).toBeInTheDocument();
    expect(callsTo(calls, 'POST', '/api/channel/batch')).toHaveLength(0);

    await userEvent.click(screen.getByRole('checkbox', { name: '选择渠道 openai-main' }));
    await userEvent.click(screen.getByRole('checkbox', { name: '选择渠道 flaky' }));
    expect(screen.getByText('已选择 2 个')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '删除所选通道' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: '删除' }),
    );
    expect(await screen.findByText('已删除 2 个通道！')).toBeInTheDocument();
    expect(callsTo(calls, 'POST', '/api/channel/batch')[0]?.body).toEqual({ ids: [1, 3] });
    // The selection is cleared once they are gone.
    expect(screen.queryByText('已选择 2 个')).not.toBeInTheDocument();
  });

  it('selects the whole page from the header', async () => {
    setup();
    await row(1);
    await userEvent.click(screen.getByRole('checkbox', { name: '选择本页全部渠道' }));
    expect(screen.getByText('已选择 5 个')).toBeInTheDocument();
  });

  it('deletes all disabled channels, fixes, tests all and updates all balances', async () => {
    const { calls } = setup();
    await row(1);
    await userEvent.click(screen.getByRole('button', { name: '删除禁用通道' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: '删除' }),
    );
    expect(await screen.findByText('已删除 2 个通道！')).toBeInTheDocument();
    expect(callsTo(calls, 'DELETE', '/api/channel/disabled')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: '修复数据库一致性' }));
    const fixDialog = await screen.findByRole('dialog', { name: '修复数据库一致性' });
    expect(callsTo(calls, 'POST', '/api/channel/fix')).toHaveLength(0);
    await userEvent.click(within(fixDialog).getByRole('button', { name: '修复' }));
    expect(await screen.findByText('已修复 3 个通道！')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: '测试所有通道' }));
    expect(
      await screen.findByText('已开始测试所有已启用通道，结果将自动刷新。'),
    ).toBeInTheDocument();
    expect(callsTo(calls, 'GET', '/api/channel/test')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: '更新所有已启用通道余额' }));
    expect(await screen.findByText('已更新所有已启用通道余额！')).toBeInTheDocument();
    expect(callsTo(calls, 'GET', '/api/channel/update_balance')).toHaveLength(1);
  });
});
