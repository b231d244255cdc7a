import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

// Shared by the *.browser.ts files: Debian chromium's flags, screenshots, sign-in, and small
// polling assertions (playwright-core ships no `expect`).

export const SCREENSHOTS = join(__dirname, '../../test-artifacts/screenshots');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A fresh browser profile (no cookies, no localStorage), Chinese unless told otherwise. */
export async function openPage(
  browser: Browser,
  baseURL: string,
  contexts: BrowserContext[],
  options: { locale?: string; viewport?: { width: number; height: number } } = {},
): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    locale: options.locale ?? 'zh-CN',
    viewport: options.viewport ?? { width: 1280, height: 860 },
  });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

export async function shoot(page: Page, name: string): Promise<void> {
  // Let Mantine's transitions (modals, toasts) settle so the picture shows the final state.
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export const unique = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-6)}`;

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await page.waitForURL('**/token');
}

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
