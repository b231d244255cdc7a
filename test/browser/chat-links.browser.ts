import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import {
  expectAttribute,
  expectText,
  poll,
  shoot,
  signIn,
  signInAsRoot,
  unique,
  useBrowserSession,
  pageApi,
} from './browser-helpers';

// Chat links in Debian's chromium against the built gateway: root configures `Chats`
// with links to a small chat page this test serves; the sidebar lists them, /chat/0 embeds the
// first one with the first enabled key filled in, /chat2link sends the window there, the token
// row's dropdown opens a chosen link with that row's key, and a user without an enabled token is
// told so and lands on /token. Screenshots land in test-artifacts/screenshots/chat-*.png.

jest.setTimeout(180_000);

const ADDRESS = 'https://gw.example.com';
let chatApp: Server;
let chatAppUrl = '';
let optionsSet = false;
const session = useBrowserSession();

/** A stand-in chat app: its page shows the query and hash it was opened with. */
beforeAll(async () => {
  chatApp = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><title>chat app</title><p id="seen"></p>' +
        '<script>document.getElementById("seen").textContent = location.search + location.hash</script>',
    );
  });
  await new Promise<void>((resolve) => chatApp.listen(0, '127.0.0.1', resolve));
  chatAppUrl = `http://127.0.0.1:${(chatApp.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => chatApp?.close(resolve));
});

interface Token {
  id: number;
  name: string;
  key: string;
  status: number;
}

/** Root's links, and two tokens: the newest (listed first) disabled, the other one enabled. */
async function configure(page: Page): Promise<{ enabled: Token; disabled: Token }> {
  const chats = [
    { 'Local chat': `${chatAppUrl}/chat?key={key}&url={address}` },
    { 'Second chat': `${chatAppUrl}/second#{key}` },
  ];
  // Options once per gateway (setting the same value again is refused as "nothing changed").
  if (!optionsSet) {
    await pageApi(page, 'put', '/api/option/', { key: 'Chats', value: JSON.stringify(chats) });
    await pageApi(page, 'put', '/api/option/', { key: 'ServerAddress', value: ADDRESS });
    optionsSet = true;
  }
  const enabledName = unique('chat-on-');
  const disabledName = unique('chat-off-');
  for (const name of [enabledName, disabledName]) {
    await pageApi(page, 'post', '/api/token/', {
      name,
      remain_quota: 0,
      expired_time: -1,
      unlimited_quota: true,
    });
  }
  const tokens = await pageApi<Token[]>(page, 'get', '/api/token/?p=0&size=100');
  const enabled = tokens.find((token) => token.name === enabledName);
  const disabled = tokens.find((token) => token.name === disabledName);
  if (!enabled || !disabled) throw new Error('the seeded tokens are missing');
  await pageApi(page, 'put', '/api/token/?status_only=true', { id: disabled.id, status: 2 });
  return { enabled, disabled };
}

test('the sidebar lists the chat links and /chat/0 embeds the first with the key filled in', async () => {
  const page = await session.openPage();
  await signInAsRoot(page);
  const { enabled, disabled } = await configure(page);
  const expected = `${chatAppUrl}/chat?key=sk-${enabled.key}&url=${encodeURIComponent(ADDRESS)}`;

  // A fresh load reads the new status: the chat submenu lists both links.
  await page.goto('/token');
  const nav = page.getByRole('navigation', { name: '导航' });
  await nav.getByText('聊天', { exact: true }).click();
  await expectAttribute(nav.getByRole('link', { name: 'Local chat' }), 'href', '/chat/0');
  await expectAttribute(nav.getByRole('link', { name: 'Second chat' }), 'href', '/chat/1');

  await nav.getByRole('link', { name: 'Local chat' }).click();
  await page.waitForURL('**/chat/0');
  const frame = page.getByTestId('chat-frame');
  await expectAttribute(frame, 'src', expected);
  // The chat app itself loaded in the iframe, with the first *enabled* key (not the newer disabled one).
  const seen = page.frameLocator('[data-testid="chat-frame"]').locator('#seen');
  await expectText(seen, new RegExp(`key=sk-${enabled.key}&url=`));
  expect(await seen.textContent()).not.toContain(disabled.key);
  await shoot(page, 'chat-embed');

  // The second link through the submenu.
  await nav.getByRole('link', { name: 'Second chat' }).click();
  await page.waitForURL('**/chat/1');
  await expectAttribute(frame, 'src', `${chatAppUrl}/second#sk-${enabled.key}`);
});

test('/chat2link sends the window to the first chat link', async () => {
  const page = await session.openPage();
  await signInAsRoot(page);
  const { enabled } = await configure(page);
  await page.goto('/chat2link');
  await page.waitForURL(`${chatAppUrl}/chat?**`);
  expect(page.url()).toBe(
    `${chatAppUrl}/chat?key=sk-${enabled.key}&url=${encodeURIComponent(ADDRESS)}`,
  );
  await expectText(page.locator('#seen'), new RegExp(`key=sk-${enabled.key}`));
});

test("the token row's menu opens the chosen link with that row's key", async () => {
  const page = await session.openPage();
  await signInAsRoot(page);
  const { disabled } = await configure(page);
  await page.goto(`/token`);
  const row = page.getByTestId(`token-row-${disabled.name}`);
  await row.getByRole('button', { name: '更多操作' }).click();
  const [popup] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('menuitem', { name: '在 Second chat 中聊天' }).click(),
  ]);
  await popup.waitForURL(`${chatAppUrl}/second**`);
  expect(popup.url()).toBe(`${chatAppUrl}/second#sk-${disabled.key}`);
});

test('a user without an enabled token is told so and lands on /token after 1.5 s', async () => {
  const admin = await session.openPage();
  await signInAsRoot(admin);
  await configure(admin);
  const username = unique('nochat');
  await pageApi(admin, 'post', '/api/user/', {
    username,
    password: 'chat-pass-1',
    display_name: username,
  });

  const page = await session.openPage();
  await signIn(page, username, 'chat-pass-1');
  await page.goto('/chat/0');
  const message = page.getByText('当前没有可用的启用令牌，请确认是否有令牌处于启用状态！');
  await message.waitFor();
  const shownAt = Date.now();
  expect(new URL(page.url()).pathname).toBe('/chat/0');
  await shoot(page, 'chat-no-token');
  await poll(
    async () => new URL(page.url()).pathname === '/token',
    async () => `expected /token, still at ${page.url()}`,
  );
  expect(Date.now() - shownAt).toBeGreaterThanOrEqual(1000);
  expect(await page.getByTestId('chat-frame').count()).toBe(0);
});
