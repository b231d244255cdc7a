import type { Page } from 'playwright-core';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import {
  expectText,
  poll,
  register,
  shoot,
  signIn,
  useBrowserSession,
  unique,
  pageApi,
  rootApi,
} from './browser-helpers';

// The data dashboard in the browser: relay calls against the mock upstream, then /detail draws its charts
// (spend stacked by model, requests, model share) from the hourly rows, and follows new usage live.
// Screenshot: test-artifacts/screenshots/dashboard.png.

jest.setTimeout(180_000);

const MODELS = ['gpt-4o-mini', 'gpt-4o'];
const session = useBrowserSession();
let upstream: MockUpstream;

beforeAll(async () => {
  upstream = await MockUpstream.start({
    defaults: { models: MODELS, usage: { prompt_tokens: 100, completion_tokens: 20 } },
  });
  const root = await rootApi(session);
  await root.call('put', '/api/option/', { key: 'QuotaForNewUser', value: '5000000' });
  // (100 prompt + 20 completion tokens) × ratio: gpt-4o-mini 1.7 → 204 quota ($0.000408) a call,
  // gpt-4o 1.25 → 150 ($0.0003).
  await root.call('put', '/api/option/', {
    key: 'ModelRatio',
    value: JSON.stringify({ 'gpt-4o-mini': 1.7, 'gpt-4o': 1.25 }),
  });
  await root.call('put', '/api/option/', { key: 'CompletionRatio', value: '{}' });
  await root.call('post', '/api/channel/', {
    type: 1,
    name: 'mock',
    key: 'sk-mock-upstream',
    base_url: upstream.url,
    models: MODELS.join(','),
    group: 'default',
  });
  await root.close();
});

afterAll(async () => {
  await upstream?.close();
});

/** Creates a token with the page's session; returns its key. */
async function createToken(page: Page): Promise<string> {
  await pageApi(page, 'post', '/api/token/', {
    name: 'dashboard',
    remain_quota: 0,
    expired_time: -1,
    unlimited_quota: true,
  });
  const tokens = await pageApi<{ key: string }[]>(page, 'get', '/api/token/?p=0&size=10');
  return tokens[0]!.key;
}

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

test('the dashboard draws spend, requests and model share from relay calls, and follows new usage', async () => {
  const page = await session.openPage();
  const username = unique('dash');
  await register(page, username, 'dashboard-pw');
  await signIn(page, username, 'dashboard-pw');
  const key = await createToken(page);
  await relay(page, key, 'gpt-4o-mini');
  await relay(page, key, 'gpt-4o-mini');
  await relay(page, key, 'gpt-4o');

  // The sidebar offers the dashboard (DataExportEnabled is on by default).
  await page.getByRole('link', { name: '数据看板' }).click();
  await page.waitForURL('**/detail');
  await page.getByRole('heading', { name: '数据看板' }).waitFor();

  const count = page.getByTestId('dashboard-card-count');
  // The rows land a moment after the calls: the page refetches on the `usage` push.
  await poll(
    async () => ((await count.textContent()) ?? '').includes('3'),
    async () => `requests card: "${await count.textContent()}"`,
  );
  await expectText(page.getByTestId('dashboard-card-tokens'), /360/);
  // DisplayInCurrencyEnabled is on by default: dollars, to the digits that make them not $0.00
  // (204 + 204 + 150 quota = $0.001116).
  await expectText(page.getByTestId('dashboard-card-quota'), /\$0\.00112/);

  const spend = page.getByTestId('dashboard-chart-quota');
  await spend.locator('.recharts-surface').first().waitFor();
  // Bars per bucket, stacked by model (no smoothed curve spreading an hour over three); the
  // legend names the models.
  const spendBars = spend.locator('.recharts-bar-rectangle path');
  await poll(
    async () => (await spendBars.count()) >= MODELS.length,
    async () => `spend bars: ${await spendBars.count()}`,
  );
  expect(await spend.locator('path.recharts-area-area').count()).toBe(0);
  for (const model of MODELS) await spend.getByText(model, { exact: true }).first().waitFor();
  // The y axis: every tick in the money format, no two alike, none a rounded-up cent.
  // (The axes' tick labels are drawn in recharts' own layers: the y axis's are the ones in dollars.)
  const tickLabels = spend.locator('.recharts-cartesian-axis-tick-value');
  const yTicks = async () =>
    (await tickLabels.allTextContents()).filter((text) => text.startsWith('$'));
  await poll(
    async () => (await yTicks()).length > 2,
    async () => `axis ticks: ${(await tickLabels.allTextContents()).join(' | ')}`,
  );
  const ticks = await yTicks();
  expect(ticks.length).toBeGreaterThan(2);
  expect(new Set(ticks).size).toBe(ticks.length);
  for (const tick of ticks) expect(tick).toMatch(/^\$0\.\d+$/);
  expect(ticks).not.toContain('$0.01');

  const requests = page.getByTestId('dashboard-chart-count');
  await requests.locator('.recharts-surface').first().waitFor();
  await poll(
    async () => (await requests.locator('.recharts-bar-rectangle path').count()) >= MODELS.length,
    async () => `bars: ${await requests.locator('.recharts-bar-rectangle path').count()}`,
  );
  const share = page.getByTestId('dashboard-chart-share');
  await poll(
    async () => (await share.locator('.recharts-pie-sector path').count()) === MODELS.length,
    async () => `sectors: ${await share.locator('.recharts-pie-sector path').count()}`,
  );
  await shoot(page, 'dashboard');
  await page.setViewportSize({ width: 1440, height: 900 });
  await shoot(page, 'dashboard-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, 'dashboard-mobile');
  await page.setViewportSize({ width: 1280, height: 860 });

  // Granularity: per day, the same totals in fewer buckets; the charts still draw.
  await page.getByText('天', { exact: true }).click();
  await spendBars.first().waitFor();
  await expectText(count, /3/);

  // New usage while the page is open: the cards follow (throttled refetch on the push).
  await relay(page, key, 'gpt-4o');
  const deadline = Date.now() + 20_000;
  while (!((await count.textContent()) ?? '').includes('4')) {
    if (Date.now() > deadline) throw new Error(`no live refresh: "${await count.textContent()}"`);
    await page.waitForTimeout(200);
  }
  await expectText(page.getByTestId('dashboard-card-quota'), /\$0\.00142/);
  await shoot(page, 'dashboard-live');

  // In English, the same figures.
  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expectText(page.getByTestId('dashboard-card-quota'), /\$0\.00142/);
  await page.setViewportSize({ width: 1440, height: 900 });
  await shoot(page, 'dashboard-en');
});

test('a user without usage sees the empty state', async () => {
  const page = await session.openPage();
  const username = unique('dashempty');
  await register(page, username, 'dashboard-pw');
  await signIn(page, username, 'dashboard-pw');
  await page.goto('/detail');
  await page.getByTestId('dashboard-empty').waitFor();
  await expectText(page.getByTestId('dashboard-empty'), /所选时间范围内暂无数据/);
  expect(await page.locator('.recharts-surface').count()).toBe(0);
  await shoot(page, 'dashboard-empty');
});
