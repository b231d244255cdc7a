import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import {
  expectCount,
  expectText,
  pageApi,
  poll,
  rootApi,
  register,
  shoot,
  signIn,
  signInAsRoot,
  useBrowserSession,
  unique,
  type BrowserSession,
  chooseRowMenu,
} from './browser-helpers';

// In the browser: tokens, redemption codes, the wallet and the log, against the built
// gateway. Screenshots land in test-artifacts/screenshots/ (token-*, redemption-*, topup-*, log-*).

jest.setTimeout(120_000);

const session = useBrowserSession();

const nav = (page: Awaited<ReturnType<BrowserSession['openPage']>>, name: string) =>
  page.getByRole('navigation', { name: '导航' }).getByRole('link', { name }).click();

test('a user creates a token, views its key and copies it as sk-<key>', async () => {
  const page = await session.openPage({ permissions: ['clipboard-read', 'clipboard-write'] });
  const username = unique('tok');
  await register(page, username, 'token-password');
  await signIn(page, username, 'token-password');

  await page
    .getByText('令牌无法精确控制使用额度，只允许自用，请勿直接将令牌分发给他人。')
    .waitFor();
  await page.getByRole('button', { name: '添加令牌' }).click();
  const drawer = page.getByRole('dialog', { name: '创建新的令牌' });
  await drawer.getByLabel('名称').fill('laptop');
  await drawer.getByRole('button', { name: '一天' }).click();
  await drawer.getByRole('button', { name: '$10', exact: true }).click();
  await shoot(page, 'token-drawer');
  await drawer.getByText('速率限制（0 表示不限制）').scrollIntoViewIfNeeded();
  await shoot(page, 'token-drawer-limits');
  await drawer.getByRole('button', { name: '提交' }).click();
  await page.getByText('令牌创建成功，请在列表页面点击复制获取令牌！').waitFor();

  const row = page.getByTestId('token-row-laptop');
  await row.getByText('已启用').waitFor();
  await expectText(row, /\$10\.00/);
  await chooseRowMenu(page, row, '查看');
  const shown = page.getByTestId('token-key');
  await expectText(shown, /^sk-[A-Za-z0-9]{48}$/);
  const key = (await shown.textContent()) ?? '';
  await shoot(page, 'token-key');
  await page.keyboard.press('Escape');
  await shown.waitFor({ state: 'hidden' });

  await row.getByRole('button', { name: '复制' }).click();
  await page.getByText('已复制到剪贴板！').waitFor();
  const copied = await page.evaluate('navigator.clipboard.readText()');
  expect(copied).toBe(key);

  // The copied key finds its token through the key search (typed with its prefix).
  await page.keyboard.press('Escape');
  await page.getByRole('textbox', { name: '密钥' }).fill(key);
  await page.getByRole('button', { name: '查询' }).click();
  await expectCount(page.locator('[data-testid^="token-row-"]'), 1);

  // A disabled token is greyed and offers enable again.
  await chooseRowMenu(page, row, '禁用');
  await row.getByText('已禁用').waitFor();
  await row.getByRole('button', { name: '更多操作' }).click();
  await page.getByRole('menuitem', { name: '启用' }).waitFor();
  await page.keyboard.press('Escape');
  await shoot(page, 'token-list');
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, 'token-mobile');
});

test('root batch-creates codes and downloads them; a user redeems one and sees it in the log', async () => {
  const admin = await session.openPage();
  await signInAsRoot(admin);
  await nav(admin, '兑换码');
  await admin.waitForURL('**/redemption');

  const name = unique('promo');
  await admin.getByRole('button', { name: '添加兑换码' }).click();
  const drawer = admin.getByRole('dialog', { name: '创建新的兑换码' });
  await drawer.getByLabel('名称').fill(name);
  await drawer.getByLabel('生成数量').fill('3');
  await shoot(admin, 'redemption-drawer');
  await drawer.getByRole('button', { name: '提交' }).click();

  const confirm = admin.getByRole('dialog', { name: '兑换码创建成功' });
  await confirm.getByText('兑换码创建成功，是否下载兑换码？').waitFor();
  await shoot(admin, 'redemption-download-confirm');
  const [download] = await Promise.all([
    admin.waitForEvent('download'),
    confirm.getByRole('button', { name: '下载' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${name}.txt`);
  const codes = (await readFile(await download.path(), 'utf8')).split('\n');
  expect(codes).toHaveLength(3);
  for (const code of codes) expect(code).toMatch(/^[A-Za-z0-9]{32}$/);

  await admin.getByRole('textbox', { name: '搜索关键字' }).fill(name);
  await admin.getByRole('button', { name: '查询' }).click();
  await expectCount(admin.locator('[data-testid^="redemption-row-"]'), 3);
  await shoot(admin, 'redemption-list');

  // A user redeems the first code on the wallet page and watches the balance grow by $0.20.
  const user = await session.openPage();
  const username = unique('payer');
  await register(user, username, 'payer-password');
  await signIn(user, username, 'payer-password');
  await nav(user, '钱包');
  await user.waitForURL('**/topup');
  const balance = user.getByTestId('wallet-balance');
  await expectText(balance, /^\$\d+\.\d{2}$/);
  const before = Number(((await balance.textContent()) ?? '').slice(1));

  await user.getByRole('button', { name: '兑换', exact: true }).click();
  await user.getByText('请输入兑换码！').waitFor();
  await user.getByRole('textbox', { name: '兑换码' }).fill(codes[0] ?? '');
  await user.getByRole('button', { name: '兑换', exact: true }).click();
  await user.getByText('兑换成功！增加额度：$0.20').waitFor();
  await expectText(balance, new RegExp(`^\\$${(before + 0.2).toFixed(2).replace('.', '\\.')}$`));
  await shoot(user, 'topup');

  // The same code a second time credits nothing.
  await user.getByRole('textbox', { name: '兑换码' }).fill(codes[0] ?? '');
  await user.getByRole('button', { name: '兑换', exact: true }).click();
  await user.getByRole('alert').filter({ hasNotText: '兑换成功' }).first().waitFor();
  await expectText(balance, new RegExp(`^\\$${(before + 0.2).toFixed(2).replace('.', '\\.')}$`));

  await nav(user, '日志');
  await user.waitForURL('**/log');
  const topUpRows = user.locator('[data-testid^="log-row-"]').filter({ hasText: '充值' });
  await expectCount(topUpRows, 1);
  await expectText(topUpRows.first(), /\$0\.20/);
  // A reload clears the toasts so the picture shows the summary badges.
  await user.reload();
  await topUpRows.first().waitFor();
  await shoot(user, 'log-user');

  // Root sees the row with the user's name, and the user popup.
  await nav(admin, '日志');
  await admin.waitForURL('**/log');
  const adminRow = admin.locator('[data-testid^="log-row-"]').filter({ hasText: username });
  await adminRow.filter({ hasText: '充值' }).first().waitFor();
  await adminRow.first().getByRole('button', { name: username }).click();
  await admin.getByRole('dialog', { name: '用户信息' }).getByText(username).waitFor();
  await shoot(admin, 'log-admin');
});

test('changes made elsewhere reach the open token and wallet pages; the pages in English', async () => {
  const page = await session.openPage();
  const username = unique('live');
  await register(page, username, 'live-password');
  await signIn(page, username, 'live-password');
  await page.getByText('暂无数据').waitFor();

  // The same user in another session creates a token over the API: the open list shows it.
  const other = await session.browser.newContext({ baseURL: session.gateway.url });
  const login = await other.request.post('/api/user/login', {
    data: { username, password: 'live-password' },
  });
  const { data: self } = (await login.json()) as { data: { id: number } };
  const created = await other.request.post('/api/token/', {
    data: { name: 'remote', remain_quota: 500000 },
    headers: { 'New-Api-User': String(self.id) },
  });
  expect(((await created.json()) as { success: boolean }).success).toBe(true);
  await page.getByTestId('token-row-remote').waitFor();

  // Root sets the user's balance (with the balance it saw): the open wallet follows.
  await nav(page, '钱包');
  const balance = page.getByTestId('wallet-balance');
  await expectText(balance, /^\$\d+\.\d{2}$/);
  const admin = await session.browser.newContext({ baseURL: session.gateway.url });
  const rootLogin = await admin.request.post('/api/user/login', {
    data: { username: 'root', password: '123456' },
  });
  const { data: root } = (await rootLogin.json()) as { data: { id: number } };
  const shown = Math.round(Number(((await balance.textContent()) ?? '').slice(1)) * 500000);
  const edited = await admin.request.put('/api/user/', {
    data: { id: self.id, username, quota: 5_000_000, expected_quota: shown },
    headers: { 'New-Api-User': String(root.id) },
  });
  expect(((await edited.json()) as { success: boolean }).success).toBe(true);
  await expectText(balance, /^\$10\.00$/);
  await Promise.all([other.close(), admin.close()]);

  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await page.getByRole('heading', { name: 'Wallet' }).waitFor();
  await shoot(page, 'topup-en');
  await page.goto('/token');
  await page.getByText('Tokens cannot precisely control usage', { exact: false }).waitFor();
  await page.getByTestId('token-row-remote').waitFor();
  await shoot(page, 'token-en');
  await page.goto('/log');
  await page.getByRole('heading', { name: 'Usage logs' }).waitFor();
  await page.locator('[data-testid^="log-row-"]').first().waitFor();
  await shoot(page, 'log-en');
});

/** One chat completion through the relay; the token may take a moment to reach the relay. */
async function relay(page: Page, key: string, model: string): Promise<void> {
  let last = '';
  await poll(
    async () => {
      const reply = await page.context().request.post('/v1/chat/completions', {
        headers: { Authorization: `Bearer sk-${key}` },
        data: { model, messages: [{ role: 'user', content: 'hello' }] },
      });
      last = `${reply.status()} ${await reply.text()}`;
      return reply.status() === 200;
    },
    async () => `the relay did not answer: ${last}`,
  );
}

test('a call costing $0.000408 shows as such in the log, the wallet and the token list', async () => {
  // (100 prompt + 20 completion tokens) × ratio 1.7 = 204 quota units = $0.000408.
  const upstream = await MockUpstream.start({
    defaults: { models: ['cheap-model'], usage: { prompt_tokens: 100, completion_tokens: 20 } },
  });
  try {
    const root = await rootApi(session);
    const stored = await root.call<{ key: string; value: string }[]>('get', '/api/option/');
    const ratios = JSON.parse(stored.find((o) => o.key === 'ModelRatio')?.value ?? '{}');
    await root.call('put', '/api/option/', {
      key: 'ModelRatio',
      value: JSON.stringify({ ...ratios, 'cheap-model': 1.7 }),
    });
    // Room for the reservation of the answer's output ceiling before the charge settles.
    await root.call('put', '/api/option/', { key: 'QuotaForNewUser', value: '50000000' });
    await root.call('post', '/api/channel/', {
      type: 1,
      name: 'cheap',
      key: 'sk-cheap-upstream',
      base_url: upstream.url,
      models: 'cheap-model',
      group: 'default',
    });
    await root.close();

    const page = await session.openPage({ viewport: { width: 1440, height: 900 } });
    const username = unique('cheap');
    await register(page, username, 'cheap-password');
    await signIn(page, username, 'cheap-password');
    await pageApi(page, 'post', '/api/token/', {
      name: 'cheap-token',
      remain_quota: 50_000_000,
      expired_time: -1,
      unlimited_quota: false,
    });
    const tokens = await pageApi<{ key: string }[]>(page, 'get', '/api/token/?p=0&size=10');
    await relay(page, tokens[0]!.key, 'cheap-model');

    await page.goto('/log');
    const callRow = page.locator('[data-testid^="log-row-"]').filter({ hasText: 'cheap-model' });
    await expectText(callRow.first(), /\$0\.000408/);
    await shoot(page, 'money-log');
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, 'money-log-mobile');
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.goto('/topup');
    await expectText(page.getByTestId('wallet-used'), /\$0\.000408/);
    await shoot(page, 'money-wallet');

    await page.goto('/token');
    const tokenRow = page.getByTestId('token-row-cheap-token');
    await expectText(tokenRow, /\$0\.000408/);
    await expectText(tokenRow, /\$100\.00/);
    await shoot(page, 'money-token-list');

    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.goto('/log');
    await expectText(callRow.first(), /\$0\.000408/);
    await shoot(page, 'money-log-en');
  } finally {
    await upstream.close();
  }
});
