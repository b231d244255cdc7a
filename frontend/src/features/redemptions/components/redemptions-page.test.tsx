import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { stubClipboard } from '@/test/clipboard';
import { captureDownloads, readBlob } from '@/test/download';
import { redemptionFixture } from '@/test/fixtures';
import { mockApi, ok, type RecordedCall } from '@/test/mock-api';
import { chooseRowMenu, rowMenuItem } from '@/test/row-menu';
import { renderWithProviders, rootUser } from '@/test/render';
import { RedemptionsPage } from './redemptions-page';

const codes = [
  redemptionFixture({ id: 1, name: 'promo', key: 'a'.repeat(32) }),
  redemptionFixture({ id: 2, name: 'paused', key: 'b'.repeat(32), status: 2 }),
  redemptionFixture({
    id: 3,
    name: 'spent',
    key: 'c'.repeat(32),
    status: 3,
    used_user_id: 7,
    redeemed_time: 1_700_000_500,
  }),
];

const page = (call: RecordedCall) =>
  ok({ items: codes, total: 3, page: Number(call.query.get('p')), page_size: 10 });

const listCalls = (calls: RecordedCall[]) =>
  calls.filter((call) => call.method === 'GET' && call.path.startsWith('/api/redemption/'));
const sent = (calls: RecordedCall[], method: string) =>
  calls.find((call) => call.method === method && call.path === '/api/redemption/');

function setup(route = '/redemption') {
  const api = mockApi({
    'GET /api/redemption/': page,
    'GET /api/redemption/search': page,
    'POST /api/redemption/': () => ok(['x'.repeat(32), 'y'.repeat(32), 'z'.repeat(32)]),
    'PUT /api/redemption/': () => ok(codes[0]),
    'DELETE /api/redemption/1/': () => ok(),
  });
  const view = renderWithProviders(<RedemptionsPage />, { route, user: rootUser });
  return { ...api, ...view };
}

const row = (id: number) => screen.findByTestId(`redemption-row-${id}`);
const openAdd = async () => {
  await row(1);
  await userEvent.click(screen.getByRole('button', { name: '添加兑换码' }));
  return screen.findByTestId('redemption-form');
};

describe('redemption page', { timeout: 20_000 }, () => {
  it('lists page 1 and searches by id or name from page 1', async () => {
    const { calls, router } = setup('/redemption?p=2');
    await row(1);
    expect(listCalls(calls).at(-1)?.query.get('p')).toBe('2');
    await userEvent.type(screen.getByRole('textbox', { name: '搜索关键字' }), ' promo ');
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?keyword=promo'));
    await vi.waitFor(() => expect(listCalls(calls).at(-1)?.path).toBe('/api/redemption/search'));
    expect(listCalls(calls).at(-1)?.query.get('keyword')).toBe('promo');
    expect(listCalls(calls).at(-1)?.query.get('p')).toBe('1');
  });

  it('shows statuses, and who redeemed a used code', async () => {
    setup();
    expect(within(await row(1)).getByText('未使用')).toBeInTheDocument();
    expect(within(await row(1)).getByText('尚未兑换')).toBeInTheDocument();
    expect(within(await row(2)).getByText('已禁用')).toBeInTheDocument();
    expect(within(await row(3)).getByText('已使用')).toBeInTheDocument();
    expect(within(await row(3)).getByText('7')).toBeInTheDocument();
  });

  it('toggles unused ⇄ disabled, never enables a used code, edits only unused ones', async () => {
    const { calls } = setup();
    expect(within(await row(3)).getByRole('button', { name: '启用' })).toBeDisabled();
    expect(await rowMenuItem(await row(3), '编辑')).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(await rowMenuItem(await row(2), '编辑')).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    await userEvent.click(within(await row(2)).getByRole('button', { name: '启用' }));
    expect(await screen.findByText('操作成功完成！')).toBeInTheDocument();
    const toggle = sent(calls, 'PUT');
    expect(toggle?.query.get('status_only')).toBe('true');
    expect(toggle?.body).toEqual({ id: 2, status: 1 });
  });

  it('asks for a selection before copying, then copies name and code per line', async () => {
    const { written } = stubClipboard();
    setup();
    await row(1);
    await userEvent.click(screen.getByRole('button', { name: '复制所选兑换码' }));
    expect(await screen.findByText('请至少选择一个兑换码！')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: '全选' }));
    await userEvent.click(screen.getByRole('button', { name: '复制所选兑换码' }));
    await vi.waitFor(() =>
      expect(written).toEqual([
        `promo    ${'a'.repeat(32)}\npaused    ${'b'.repeat(32)}\nspent    ${'c'.repeat(32)}`,
      ]),
    );
  });

  it('creates with quota 100000 and count 1 by default; an empty name is marked on its field', async () => {
    const { calls } = setup();
    const form = await openAdd();
    expect(within(form).getByRole('textbox', { name: '额度' })).toHaveValue('100000');
    expect(within(form).getByRole('textbox', { name: '生成数量' })).toHaveValue('1');
    await userEvent.click(within(form).getByRole('button', { name: '提交' }));
    expect(sent(calls, 'POST')).toBeUndefined();
    const name = within(form).getByRole('textbox', { name: '名称' });
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('请输入兑换码名称！');
    expect(name).toHaveFocus();
  });

  it('creates codes, then offers them as <name>.txt', async () => {
    const { files } = captureDownloads();
    const { calls } = setup();
    const form = await openAdd();
    await userEvent.type(within(form).getByRole('textbox', { name: '名称' }), 'launch');
    const count = within(form).getByRole('textbox', { name: '生成数量' });
    await userEvent.clear(count);
    await userEvent.type(count, '3');
    await userEvent.click(within(form).getByRole('button', { name: '提交' }));
    expect(await screen.findByText('兑换码创建成功，是否下载兑换码？')).toBeInTheDocument();
    expect(sent(calls, 'POST')?.body).toEqual({ name: 'launch', quota: 100000, count: 3 });

    const dialog = screen.getByRole('dialog', { name: '兑换码创建成功' });
    await userEvent.click(within(dialog).getByRole('button', { name: '下载' }));
    expect(files.map((file) => file.name)).toEqual(['launch.txt']);
    expect(await readBlob(files[0]!.blob)).toBe(
      ['x'.repeat(32), 'y'.repeat(32), 'z'.repeat(32)].join('\n'),
    );
  });

  it('clamps the count to 1..100 and refuses an empty one', async () => {
    const { calls } = setup();
    const form = await openAdd();
    await userEvent.type(within(form).getByRole('textbox', { name: '名称' }), 'many');
    const count = within(form).getByRole('textbox', { name: '生成数量' });
    await userEvent.clear(count);
    await userEvent.type(count, '500');
    await userEvent.tab();
    expect(count).toHaveValue('100');
    await userEvent.clear(count);
    await userEvent.click(within(form).getByRole('button', { name: '提交' }));
    expect(await screen.findByText('生成数量必须是 1 到 100 之间的整数！')).toBeInTheDocument();
    expect(sent(calls, 'POST')).toBeUndefined();
  });

  it('edits an unused code: name and quota, without count', async () => {
    const { calls } = setup();
    await chooseRowMenu(await row(1), '编辑');
    const form = await screen.findByTestId('redemption-form');
    expect(within(form).queryByRole('textbox', { name: '生成数量' })).not.toBeInTheDocument();
    const quota = within(form).getByRole('textbox', { name: '额度' });
    await userEvent.clear(quota);
    await userEvent.type(quota, '250000');
    await userEvent.click(within(form).getByRole('button', { name: '提交' }));
    expect(await screen.findByText('兑换码更新成功！')).toBeInTheDocument();
    expect(sent(calls, 'PUT')?.body).toEqual({ id: 1, name: 'promo', quota: 250000 });
  });

  it('asks before deleting', async () => {
    const { calls } = setup();
    await chooseRowMenu(await row(1), '删除');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('此修改将不可逆')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: '删除' }));
    await vi.waitFor(() =>
      expect(
        calls.some((call) => call.method === 'DELETE' && call.path === '/api/redemption/1/'),
      ).toBe(true),
    );
  });
});
