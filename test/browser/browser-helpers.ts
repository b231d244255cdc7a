import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startGateway, type RunningGateway } from '../support/start-gateway';

// Shared by the *.browser.ts files: Debian's chromium against the built gateway (temp DATA_DIR),
// fresh profiles per test, screenshots under test-artifacts/screenshots/ (git-ignored), sign-in,
// and small polling assertions (playwright-core ships no `expect`).

export const SCREENSHOTS = join(__dirname, '../../test-artifacts/screenshots');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserSession {
  readonly gateway: RunningGateway;
  readonly browser: Browser;
  /** A fresh profile without a page (API calls as another session); closed after the test. */
  newContext(): Promise<BrowserContext>;
  /** A fresh profile (no cookies, no localStorage), Chinese unless told otherwise. */
  openPage(options?: {
    locale?: string;
    viewport?: { width: number; height: number };
    permissions?: string[];
  }): Promise<Page>;
  /** Closes the profiles opened by the test that just ended. */
  closePages(): Promise<void>;
  close(): Promise<void>;
}

export interface BrowserSessionOptions {
  /** Extra gateway environment (e.g. provider URLs pointing at the test's local mocks). */
  readonly gatewayEnv?: Record<string, string>;
}

export async function startBrowserSession(
  options: BrowserSessionOptions = {},
): Promise<BrowserSession> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const gateway = await startGateway({ env: options.gatewayEnv });
  // A browser that cannot start must not leave the gateway running (jest would never exit).
  const browser = await chromium
    .launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })
    .catch(async (error: unknown) => {
      await gateway.stop();
      throw error;
    });
  const contexts: BrowserContext[] = [];
  const track = (context: BrowserContext) => {
    contexts.push(context);
    return context;
  };
  return {
    gateway,
    browser,
    async newContext() {
      return track(await browser.newContext({ baseURL: gateway.url }));
    },
    async openPage(options = {}) {
      const context = track(
        await browser.newContext({
          baseURL: gateway.url,
          locale: options.locale ?? 'zh-CN',
          viewport: options.viewport ?? { width: 1280, height: 860 },
          acceptDownloads: true,
        }),
      );
      if (options.permissions) {
        await context.grantPermissions(options.permissions, { origin: gateway.url });
      }
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      return page;
    },
    async closePages() {
      await Promise.all(contexts.splice(0).map((context) => context.close()));
    },
    async close() {
      await browser.close();
      await gateway.stop();
    },
  };
}

export async function shoot(page: Page, name: string): Promise<void> {
  // Let Mantine's transitions (drawers, modals, toasts) settle so the picture shows the final state.
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export const unique = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-6)}`;

export async function register(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/register');
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByLabel('确认密码').fill(password);
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await page.waitForURL('**/login');
}

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await page.waitForURL('**/token');
}

/** Root still has the bootstrap password: sign in and dismiss the reminder. */
export async function signInAsRoot(page: Page): Promise<void> {
  await signIn(page, 'root', '123456');
  await page.getByRole('button', { name: '稍后' }).click();
}

type ApiMethod = 'get' | 'post' | 'put';

/** One API call; a `success: false` answer fails the calling test with the server's message. */
async function callApi<T>(
  request: BrowserContext['request'],
  headers: Record<string, string>,
  method: ApiMethod,
  path: string,
  data?: unknown,
): Promise<T> {
  const answer = await request[method](path, { headers, ...(data === undefined ? {} : { data }) });
  const body = (await answer.json()) as { success: boolean; message: string; data: T };
  if (!body.success) throw new Error(`${method} ${path}: ${body.message}`);
  return body.data;
}

/** Calls the API with the page's session, as the console does. */
export async function pageApi<T>(page: Page, method: ApiMethod, path: string, data?: unknown) {
  const user = await page.evaluate<string | null>("localStorage.getItem('user')");
  const { id } = JSON.parse(user ?? '{}') as { id: number };
  return callApi<T>(page.context().request, { 'New-Api-User': String(id) }, method, path, data);
}

/**
 * Root (bootstrap password) over the API in a profile of its own, for a file's set-up before any
 * page opens: `call` as pageApi does; `close` when done.
 */
export async function rootApi(session: BrowserSession) {
  const context = await session.browser.newContext({ baseURL: session.gateway.url });
  const root = await callApi<{ id: number }>(context.request, {}, 'post', '/api/user/login', {
    username: 'root',
    password: '123456',
  });
  const headers = { 'New-Api-User': String(root.id) };
  return {
    call: <T>(method: ApiMethod, path: string, data?: unknown) =>
      callApi<T>(context.request, headers, method, path, data),
    close: () => context.close(),
  };
}

/** Opens a table row's "…" menu (zh-CN) and picks the entry named `item`. */
export async function chooseRowMenu(page: Page, row: Locator, item: string): Promise<void> {
  await row.getByRole('button', { name: '更多操作' }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

// Small polling assertions: playwright-core ships no `expect`.
export async function poll(check: () => Promise<boolean>, describe: () => Promise<string>) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(await describe());
}

export type Locator = ReturnType<Page['locator']>;

export const expectText = (locator: Locator, pattern: RegExp) =>
  poll(
    async () => pattern.test((await locator.textContent()) ?? ''),
    async () => `expected ${String(pattern)}, got "${await locator.textContent()}"`,
  );

export const expectCount = (locator: Locator, count: number) =>
  poll(
    async () => (await locator.count()) === count,
    async () => `expected ${count} elements, got ${await locator.count()}`,
  );

export const expectAttribute = (locator: Locator, name: string, value: string | null) =>
  poll(
    async () => (await locator.getAttribute(name)) === value,
    async () => `expected ${name}="${value}", got "${await locator.getAttribute(name)}"`,
  );

/**
 * One session for the calling test file: started before its tests, its profiles closed after each
 * test, stopped after the file. Call at the top level of the file; `options` is read when the
 * session starts (after the file's earlier beforeAll hooks, e.g. ones starting mock servers).
 */
export function useBrowserSession(
  options: () => BrowserSessionOptions = () => ({}),
): BrowserSession {
  let current: BrowserSession | undefined;
  beforeAll(async () => {
    current = await startBrowserSession(options());
  });
  afterEach(async () => {
    await current?.closePages();
  });
  afterAll(async () => {
    await current?.close();
  });
  const started = () => {
    if (!current) throw new Error('the browser session starts in beforeAll');
    return current;
  };
  return {
    get gateway() {
      return started().gateway;
    },
    get browser() {
      return started().browser;
    },
    newContext: () => started().newContext(),
    openPage: (options) => started().openPage(options),
    closePages: () => started().closePages(),
    close: () => started().close(),
  };
}
