import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { readString, StorageKey } from '@/lib/storage';
import { stubClipboard } from '@/test/clipboard';
import { tokenFixture } from '@/test/fixtures';
import { mockApi, ok, type RecordedCall } from '@/test/mock-api';
import { chooseRowMenu, rowMenuItem } from '@/test/row-menu';
import { ordinaryUser, renderWithProviders } from '@/test/render';
import { TokensPage } from './tokens-page';

const key = (char: string) => char.repeat(48);
const tokens = [
  tokenFixture({ id: 1, name: 'laptop', key: key('a') }),
  tokenFixture({ id: 2, name: 'server', key: key('b'), status: 2 }),
  tokenFixture({ id: 3, name: 'limited', key: key('c'), model_limits_enabled: true }),
  tokenFixture({ id: 4, name: 'old', key: key('d'), status: 3, expired_time: 1_700_000_100 }),
  tokenFixture({ id: 5, name: 'spent', key: key('e'), status: 4, unlimited_quota: false }),
  tokenFixture({ id: 6, name: 'free', key: key('f'), unlimited_quota: true }),
  tokenFixture({
    id: 7,
    name: 'capped',
    key: key('g'),
    period: 'day',
    period_quota: 1_000_000,
    period_used: 500_000,
    period_reset_at: 1_900_000_000,
  }),
  tokenFixture({
    id: 8,
    name: 'overdrawn',
    key: key('h'),
    remain_quota: -5_000,
    period: 'day',
    period_quota: 500_000,
    period_used: 600_000,
    period_reset_at: 1_900_000_000,
  }),
];

const listCalls = (calls: RecordedCall[]) =>
  calls.filter((call) => call.path === '/api/token/' || call.path === '/api/token/search');

function setup(route = '/token', status = {}) {
  const api = mockApi({
    'GET /api/token/': () => ok(tokens),
    'GET /api/token/search': () => ok(tokens.slice(0, 1)),
    'PUT /api/token/': (call) => ok({ ...tokens[0], ...(call.body as object) }),
    'DELETE /api/token/1/': () => ok(),
    'GET /api/user/models': () => ok(['gpt-4o', 'gpt-4o-mini']),
    'GET /api/user/self/groups': () => ok({ default: { ratio: 1, desc: '默认分组' } }),
  });
  const view = renderWithProviders(<TokensPage />, { route, user: ordinaryUser, status });
  return { ...api, ...view };
}

const row = (name: string) => screen.findByTestId(`token-row-${name}`);

describe('token page', { timeout: 20_000 }, () => {
  it('warns that tokens must not be handed out and loads page 0 of the API', async () => {
    const { calls } = setup();
    await row('laptop');
    expect(screen.getByTestId('tokens-warning')).toHaveTextContent(
      '令牌无法精确控制使用额度，只允许自用，请勿直接将令牌分发给他人。',
    );
    const last = listCalls(calls).at(-1);
    expect(last?.path).toBe('/api/token/');
    expect(last?.query.get('p')).toBe('0');
    expect(last?.query.get('size')).toBe('10');
  });

  it('labels every status, model limits included, and greys rows that are not enabled', async () => {
    setup();
    expect(within(await row('laptop')).getByText('已启用')).toBeInTheDocument();
    expect(within(await row('server')).getByText('已禁用')).toBeInTheDocument();
    expect(within(await row('limited')).getByText('已启用：限制模型')).toBeInTheDocument();
    expect(within(await row('old')).getByText('已过期')).toBeInTheDocument();
    expect(within(await row('spent')).getByText('已耗尽')).toBeInTheDocument();
    expect(within(await row('free')).getByText('无限制')).toBeInTheDocument();
    expect(within(await row('laptop')).getByText('永不过期')).toBeInTheDocument();
    expect(await row('laptop')).not.toHaveAttribute('data-inactive');
    for (const name of ['server', 'old', 'spent']) {
      expect(await row(name)).toHaveAttribute('data-inactive', 'true');
    }
  });

  it('offers enable for any status but enabled, and sends the toggle as status_only', async () => {
    const { calls } = setup();
    for (const name of ['server', 'old', 'spent']) {
      expect(await rowMenuItem(await row(name), '启用')).toBeInTheDocument();
      await userEvent.keyboard('{Escape}');
    }
    await chooseRowMenu(await row('laptop'), '禁用');
    expect(await screen.findByText('操作成功完成！')).toBeInTheDocument();
    const toggle = calls.find((call) => call.method === 'PUT');
    expect(toggle?.query.get('status_only')).toBe('true');
    expect(toggle?.body).toEqual({ id: 1, status: 2 });
  });

  it('searches by name and key, trimmed, through the URL', async () => {
    const { calls, router } = setup('/token?p=3');
    await row('laptop');
    await userEvent.type(screen.getByRole('textbox', { name: '令牌名称' }), '  lap ');
    await userEvent.type(screen.getByRole('textbox', { name: '密钥' }), `sk-${key('a')}`);
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    await vi.waitFor(() =>
      expect(router.state.location.search).toBe(`?keyword=lap&token=${key('a')}`),
    );
    await vi.waitFor(() => expect(listCalls(calls).at(-1)?.path).toBe('/api/token/search'));
    expect(listCalls(calls).at(-1)?.query.get('keyword')).toBe('lap');
    expect(listCalls(calls).at(-1)?.query.get('token')).toBe(key('a'));
    expect(listCalls(calls).at(-1)?.query.get('p')).toBe('0');
  });

  it('pages through a list without a total and remembers the page size', async () => {
    const { calls, router } = setup();
    await row('laptop');
    await userEvent.click(screen.getByRole('combobox', { name: '每页条数' }));
    await userEvent.click(await screen.findByRole('option', { name: '20 条/页' }));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?size=20'));
    expect(readString(StorageKey.tokensPageSize)).toBe('20');
    await vi.waitFor(() => expect(listCalls(calls).at(-1)?.query.get('size')).toBe('20'));
    // Six rows of twenty: this is the last page.
    expect(screen.getByRole('button', { name: '下一页' })).toBeDisabled();
  });

  it('asks for a selection before copying, then copies name and sk- key per line', async () => {
    const { written } = stubClipboard();
    setup();
    await row('laptop');
    await userEvent.click(screen.getByRole('button', { name: '复制所选令牌' }));
    expect(await screen.findByText('请至少选择一个令牌！')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('checkbox', { name: '选择令牌 laptop' }));
    await userEvent.click(screen.getByRole('checkbox', { name: '选择令牌 server' }));
    await userEvent.click(screen.getByRole('button', { name: '复制所选令牌' }));
    await vi.waitFor(() =>
      expect(written).toEqual([`laptop    sk-${key('a')}\nserver    sk-${key('b')}`]),
    );
  });

  it('shows and copies a key with its sk- prefix', async () => {
    const { written } = stubClipboard();
    setup();
    const laptop = await row('laptop');
    await chooseRowMenu(laptop, '查看');
    expect(await screen.findByText(`sk-${key('a')}`)).toBeInTheDocument();
    await userEvent.click(within(laptop).getByRole('button', { name: '复制' }));
    expect(await screen.findByText('已复制到剪贴板！')).toBeInTheDocument();
    expect(written).toEqual([`sk-${key('a')}`]);
  });

  it('asks before deleting: this cannot be undone', async () => {
    const { calls } = setup();
    await chooseRowMenu(await row('laptop'), '删除');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('此修改将不可逆')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: '删除' }));
    await vi.waitFor(() =>
      expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/token/1/')).toBe(
        true,
      ),
    );
  });

  it('opens the first chat target with the address and the key filled in', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    setup('/token', {
      server_address: 'https://gw.example.com',
      chats: [
        { NextChat: 'https://chat.example.com/#/?key={key}&url={address}' },
        { Lobe: 'https://lobe.example.com/?k={key}' },
      ],
    });
    await chooseRowMenu(await row('laptop'), '聊天');
    expect(open).toHaveBeenCalledWith(
      `https://chat.example.com/#/?key=sk-${key('a')}&url=https%3A%2F%2Fgw.example.com`,
      '_blank',
      'noopener',
    );
    await chooseRowMenu(await row('laptop'), '在 Lobe 中聊天');
    expect(open).toHaveBeenLastCalledWith(
      `https://lobe.example.com/?k=sk-${key('a')}`,
      '_blank',
      'noopener',
    );
  });

  it('says to ask the administrator when no chat link exists', async () => {
    setup('/token', { chats: [], chat_link: '' });
    await chooseRowMenu(await row('laptop'), '聊天');
    expect(await screen.findByText('请联系管理员配置聊天链接')).toBeInTheDocument();
  });

  it('shows a budget as used / limit per period with its reset time; none otherwise', async () => {
    setup();
    const capped = await row('capped');
    expect(within(capped).getByTestId('token-budget-capped')).toHaveTextContent(
      '每日 $1.00 / $2.00',
    );
    expect(within(capped).getByTestId('token-budget-capped')).toHaveTextContent('重置');
    expect(within(await row('laptop')).getByText('不限')).toBeInTheDocument();
  });

  it('shows a negative remaining quota as a debt and a budget spent past its limit in red', async () => {
    setup();
    const overdrawn = await row('overdrawn');
    expect(within(overdrawn).getByText('-$0.01')).toHaveStyle({
      color: 'var(--mantine-color-red-text)',
    });
    expect(within(overdrawn).getByTestId('debt-badge')).toHaveTextContent('欠费');
    const budget = within(overdrawn).getByTestId('token-budget-overdrawn');
    expect(budget).toHaveTextContent('每日 $1.20 / $1.00');
    expect(budget).toHaveStyle({ color: 'var(--mantine-color-red-text)' });
    // Within its budget and its quota: neither red nor marked.
    const capped = await row('capped');
    expect(within(capped).getByTestId('token-budget-capped')).not.toHaveStyle({
      color: 'var(--mantine-color-red-text)',
    });
    expect(within(capped).queryByTestId('debt-badge')).not.toBeInTheDocument();
  });
});
