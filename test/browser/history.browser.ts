import type { Page } from 'playwright-core';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import {
  expectCount,
  expectText,
  poll,
  shoot,
  signInAsRoot,
  unique,
  useBrowserSession,
  chooseRowMenu,
} from './browser-helpers';

// History in Debian's chromium against the built gateway: an admin reads a user's history (the
// promotion and the quota change, with the admin's name), the log page's live toggle shows a new
// consumption row from a relay call without a reload, and the channel page shows a test's
// auto-disable as it happens. Screenshots land in test-artifacts/screenshots/history-*.png.

jest.setTimeout(180_000);

const MODEL = 'gpt-4o-mini';
let upstream: MockUpstream;
const session = useBrowserSession();

beforeAll(async () => {
  upstream = await MockUpstream.start({ defaults: { models: [MODEL], latencyMs: 20 } });
});

afterAll(async () => {
  await upstream?.close();
});

/** Calls the API with the page's session, as the console does. */
async function api<T>(page: Page, method: 'get' | 'post' | 'put', path: string, data?: unknown) {
  const user = await page.evaluate<string | null>("localStorage.getItem('user')");
  const { id } = JSON.parse(user ?? '{}') as { id: number };
  const answer = await page.context().request[method](path, {
    headers: { 'New-Api-User': String(id) },
    ...(data === undefined ? {} : { data }),
  });
  const body = (await answer.json()) as { success: boolean; message: string; data: T };
  if (!body.success) throw new Error(`${method} ${path}: ${body.message}`);
  return body.data;
}

/** A list answer: a bare array, or a page of items (the answer shapes may differ by route). */
const listOf = <T>(data: T[] | { items: T[] }): T[] => (Array.isArray(data) ? data : data.items);

/** A marker on the window: still there after a change = the page was not reloaded. */
const markPage = (page: Page) => page.evaluate('window.__notReloaded = true');
const stillSamePage = async (page: Page) =>
  expect(await page.evaluate<boolean>('window.__notReloaded === true')).toBe(true);

test("an admin opens a user's history and sees the promotion and the quota change", async () => {
  const page = await session.openPage();
  await signInAsRoot(page);
  const username = unique('hist');
  await api(page, 'post', '/api/user/', {
    username,
    password: 'history-pass-1',
    display_name: username,
  });
  const found = await api<{ items: { id: number; username: string }[] }>(
    page,
    'get',
    `/api/user/search?keyword=${username}&p=1&page_size=10`,
  );
  const id = found.items.find((user) => user.username === username)?.id;
  if (id === undefined) throw new Error(`${username} not found`);
  await api(page, 'post', '/api/user/manage', { id, action: 'promote' });
  // $3.00 with the default 500000 quota per dollar.
  await api(page, 'put', '/api/user/', { id, quota: 1_500_000 });

  await page.goto(`/user?keyword=${username}`);
  const row = page.getByTestId(`user-row-${username}`);
  await row.waitFor();
  await chooseRowMenu(page, row, '历史');
  const drawer = page.getByRole('dialog', { name: `用户历史：${username}` });
  await drawer.waitFor();

  const promotion = drawer.getByTestId('history-item').filter({ hasText: '角色变更' });
  await expectCount(promotion, 1);
  await expectText(promotion, /角色: 普通用户 → 管理员/);
  await expectText(promotion.getByTestId('history-actor'), /root/);
  await expectText(promotion, /请求 ID: \S+/);

  const quota = drawer
    .getByTestId('history-item')
    .filter({ has: page.getByTestId('history-change').filter({ hasText: '$3.00' }) });
  await expectCount(quota, 1);
  await expectText(quota.getByTestId('history-actor'), /root/);
  await shoot(page, 'history-user');

  // The balance then: now it is the $3.00 the admin set.
  await drawer.getByRole('tab', { name: '余额回溯' }).click();
  await drawer.getByRole('button', { name: '查看' }).click();
  await expectText(drawer.getByTestId('balance-at-quota'), /^\$3\.00$/);
  await shoot(page, 'history-balance-at');

  // Who did what: root's own drawer lists the promotion of this user.
  await page.keyboard.press('Escape');
  await page.goto('/user?keyword=root');
  await chooseRowMenu(page, page.getByTestId('user-row-root'), '历史');
  const rootDrawer = page.getByRole('dialog', { name: '用户历史：root' });
  await rootDrawer.getByRole('tab', { name: '此管理员的操作' }).click();
  await expectCount(
    rootDrawer
      .getByTestId('history-item')
      .filter({ hasText: '角色变更' })
      .filter({ hasText: `用户 #${id}` }),
    1,
  );
  await shoot(page, 'history-by-actor');
});

test('the live log page shows a new consumption row from a relay call without reload', async () => {
  const page = await session.openPage();
  await signInAsRoot(page);
  await api(page, 'post', '/api/channel/', {
    type: 1,
    name: unique('live-'),
    key: 'sk-live',
    base_url: upstream.url,
    models: MODEL,
  });
  const codes = await api<string[]>(page, 'post', '/api/redemption/', {
    name: 'live-code',
    quota: 5_000_000,
    count: 1,
  });
  await api(page, 'post', '/api/user/topup', { key: codes[0] });
  const tokenName = unique('live-token-');
  await api(page, 'post', '/api/token/', {
    name: tokenName,
    remain_quota: 0,
    expired_time: -1,
    unlimited_quota: true,
  });
  type Token = { key: string; name: string };
  const tokens = await api<Token[] | { items: Token[] }>(page, 'get', '/api/token/?p=0&size=100');
  const key = listOf(tokens).find((token) => token.name === tokenName)?.key ?? '';

  await page.goto('/log');
  await page.getByRole('heading', { name: '使用日志' }).waitFor();
  const live = page.getByRole('switch', { name: '实时' });
  await live.check();
  await markPage(page);
  const rows = page.locator('[data-testid^="log-row-"]').filter({ hasText: tokenName });
  await expectCount(rows, 0);

  // The relay learns of the new token from the log a moment later: ask until it answers.
  let last = '';
  await poll(
    async () => {
      const reply = await page.context().request.post('/v1/chat/completions', {
        headers: { Authorization: `Bearer sk-${key}` },
        data: { model: MODEL, messages: [{ role: 'user', content: 'hello' }] },
      });
      last = `${reply.status()} ${await reply.text()}`;
      return reply.status() === 200;
    },
    async () => `the relay did not serve the token: ${last}`,
  );

  await expectCount(rows, 1);
  await expectText(rows.first(), new RegExp(MODEL));
  await stillSamePage(page);
  await shoot(page, 'history-live-log');
});

test('the channel page shows a test that auto-disables a channel as it happens', async () => {
  const page = await session.openPage();
  await signInAsRoot(page);
  upstream.forKey('sk-dead', { fail: 'invalid_key' });
  await api(page, 'put', '/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
  const name = unique('dead-');
  await api(page, 'post', '/api/channel/', {
    type: 1,
    name,
    key: 'sk-dead',
    base_url: upstream.url,
    models: MODEL,
    auto_ban: 1,
  });
  await page.goto('/channel');
  const row = page.locator('[data-testid^="channel-row-"]').filter({ hasText: name });
  await row.getByText('已启用', { exact: true }).waitFor();
  await markPage(page);

  type Channel = { id: number; name: string };
  const channels = await api<Channel[] | { items: Channel[] }>(
    page,
    'get',
    `/api/channel/search?keyword=${name}`,
  );
  const id = listOf(channels).find((channel) => channel.name === name)?.id;
  if (id === undefined) throw new Error(`${name} not found`);
  // Tested elsewhere (the API, as another tab or the schedule would): the answer is a failure.
  const user = await page.evaluate<string | null>("localStorage.getItem('user')");
  const { id: rootId } = JSON.parse(user ?? '{}') as { id: number };
  await page.context().request.get(`/api/channel/test/${id}`, {
    headers: { 'New-Api-User': String(rootId) },
  });

  await row.getByText('自动禁用', { exact: true }).waitFor();
  await stillSamePage(page);
  await shoot(page, 'history-channel-auto-disabled');
});

test("a token's history reads in words and follows a change made while it is open", async () => {
  const page = await session.openPage({ viewport: { width: 1440, height: 900 } });
  await signInAsRoot(page);
  const tokenName = unique('words-');
  const expires = Math.floor(Date.now() / 1000) + 30 * 86_400;
  await api(page, 'post', '/api/token/', {
    name: tokenName,
    remain_quota: 500_000,
    expired_time: expires,
    unlimited_quota: false,
  });
  type Token = { id: number; name: string };
  const tokens = await api<Token[] | { items: Token[] }>(page, 'get', '/api/token/?p=0&size=100');
  const id = listOf(tokens).find((token) => token.name === tokenName)?.id;
  if (id === undefined) throw new Error(`${tokenName} not found`);

  await page.goto('/token');
  await chooseRowMenu(page, page.getByTestId(`token-row-${tokenName}`), '历史');
  const drawer = page.getByRole('dialog', { name: `令牌历史：${tokenName}` });
  const created = drawer.getByTestId('history-item').filter({ hasText: '创建令牌' });
  await expectCount(created, 1);
  await expectText(created, new RegExp(`名称: ${tokenName}`));
  await expectText(created, /过期时间: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  await expectText(created, /额度: \$1\.00/);
  await expectText(created, /状态: 已启用/);
  await expectText(created, /密钥: 已更改/);
  const shown = (await drawer.textContent()) ?? '';
  for (const raw of ['expired_time', 'unlimited_quota', 'test_time', '（空） → （空）'])
    expect(shown).not.toContain(raw);

  // Disabled elsewhere while the drawer is open: the new entry appears without reopening it.
  await api(page, 'put', '/api/token/?status_only=true', { id, status: 2 });
  const disabled = drawer.getByTestId('history-item').filter({ hasText: '令牌状态变更' });
  await expectCount(disabled, 1);
  await expectText(disabled, /状态: 已启用 → 已禁用/);
  await shoot(page, 'history-token-words');

  // English, at phone width.
  await page.keyboard.press('Escape');
  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await page.setViewportSize({ width: 390, height: 844 });
  const card = page.getByTestId(`token-row-${tokenName}`);
  await card.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: 'History', exact: true }).click();
  const english = page.getByRole('dialog', { name: `Token history: ${tokenName}` });
  await expectText(english.getByTestId('history-item').first(), /Status: Enabled → Disabled/);
  await expectText(english, /Expiry: \d{4}-\d{2}-\d{2}/);
  await shoot(page, 'history-token-words-en-mobile');
});
