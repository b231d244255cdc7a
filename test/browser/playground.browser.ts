import { MockUpstream } from '@tollgate/testing/mock-upstream';
import type { Page } from 'playwright-core';
import {
  expectCount,
  expectText,
  pageApi,
  poll,
  register,
  rootApi,
  shoot,
  signIn,
  signInAsRoot,
  useBrowserSession,
  unique,
} from './browser-helpers';

// The playground in the browser: it streams a reply from the mock upstream through the built
// gateway (Markdown and code blocks rendered), reads an error as a message, and the log page shows
// the consumption row with its receipt, sized for 1440 px.

jest.setTimeout(120_000);

const session = useBrowserSession();
let upstream: MockUpstream;

beforeAll(async () => {
  upstream = await MockUpstream.start();
  // Root prepares the gateway over the API: a quota for new users and a channel to the mock.
  const admin = await session.browser.newContext({ baseURL: session.gateway.url });
  const login = await admin.request.post('/api/user/login', {
    data: { username: 'root', password: '123456' },
  });
  const { data: root } = (await login.json()) as { data: { id: number } };
  const headers = { 'New-Api-User': String(root.id) };
  for (const [key, value] of [['QuotaForNewUser', '5000000']]) {
    const res = await admin.request.put('/api/option/', { data: { key, value }, headers });
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
  }
  const channel = await admin.request.post('/api/channel/', {
    data: {
      type: 1,
      name: 'mock',
      key: 'sk-mock-upstream',
      base_url: upstream.url,
      models: 'gpt-4o-mini,gpt-4o',
      group: 'default',
    },
    headers,
  });
  expect(((await channel.json()) as { success: boolean }).success).toBe(true);
  await admin.close();
});

afterAll(async () => {
  await upstream?.close();
});

test('the playground streams a reply; the log shows the consumption row', async () => {
  upstream.setDefaults({
    chunks: 6,
    // Slow enough (1.8 s in all) that a loaded browser still renders the reply while it streams.
    chunkIntervalMs: 300,
    content: 'Hello from the mock upstream',
    usage: { prompt_tokens: 12, completion_tokens: 6 },
  });
  const page = await session.openPage();
  const username = unique('pg');
  await register(page, username, 'playground-pw');
  await signIn(page, username, 'playground-pw');

  await page.goto('/playground');
  await page.getByRole('heading', { name: '操练场' }).waitFor();
  // gpt-4o-mini is the default model when the group offers it
  const model = page.getByTestId('playground-model');
  await poll(
    async () => (await model.inputValue()) === 'gpt-4o-mini',
    async () => `model is "${await model.inputValue()}"`,
  );
  await page.getByTestId('playground-input').fill('Say hello');
  await page.getByTestId('playground-send').click();

  const reply = page.getByTestId('assistant-message');
  // The reply grows while it streams (incomplete), then completes.
  await page.locator('[data-testid="assistant-message"][data-status="incomplete"]').waitFor();
  await shoot(page, 'playground-streaming');
  await page.locator('[data-testid="assistant-message"][data-status="complete"]').waitFor();
  await expectText(reply, /Hello from the mock upstream/);
  await shoot(page, 'playground');
  const sent = upstream.requestsTo('/chat/completions').at(-1)!;
  expect(sent.body).toMatchObject({
    model: 'gpt-4o-mini',
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: 'user', content: 'Say hello' }],
  });
  expect(sent.body).not.toHaveProperty('group');

  // Clear context empties the conversation.
  await page.getByTestId('playground-clear').click();
  await expectCount(page.getByTestId('assistant-message'), 0);

  // The consumption row: gpt-4o-mini, 12 + 6 tokens, round((12 + 6 × 4) × 0.075) = 3 quota.
  await page.goto('/log');
  const rows = page.locator('[data-testid^="log-row-"]').filter({ hasText: 'gpt-4o-mini' });
  await expectCount(rows, 1);
  await expectText(rows.first(), /12/);
  await shoot(page, 'log-consumption');
});

const DESKTOP = { width: 1440, height: 900 };

/** Sends `text` from the playground and waits for the reply to settle; returns the last reply. */
async function ask(page: Page, text: string) {
  const model = page.getByTestId('playground-model');
  await poll(
    async () => (await model.inputValue()) === 'gpt-4o-mini',
    async () => `model is "${await model.inputValue()}"`,
  );
  const before = await page.getByTestId('assistant-message').count();
  await page.getByTestId('playground-input').fill(text);
  await page.getByTestId('playground-send').click();
  await expectCount(page.getByTestId('assistant-message'), before + 1);
  const reply = page.getByTestId('assistant-message').last();
  await poll(
    async () => ['complete', 'error'].includes((await reply.getAttribute('data-status')) ?? ''),
    async () => `the reply stayed "${await reply.getAttribute('data-status')}"`,
  );
  return reply;
}

interface LogFit {
  /** Header cells and time cells whose text runs over more than one line. */
  wrapped: string[];
  /** Elements of the 用时/首字 cells whose content is wider than their box (cut or ellipsed). */
  cut: string[];
  rows: number;
  /** How far the table runs past its card's padding (≤ 0: every column on screen). */
  sideways: number;
}

/** Measures the log table in the browser (a string so the bundler's helpers stay out of it). */
const MEASURE_LOG = `(() => {
  const table = document.querySelector('[data-testid="logs-table"]');
  const lines = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  };
  const wrapped = [...table.querySelectorAll('th, [data-testid="log-time"]')]
    .filter((el) => lines(el) > 1)
    .map((el) => el.textContent);
  const timeCells = [...table.querySelectorAll('[data-testid="log-use-time"]')];
  const cut = timeCells
    .flatMap((cell) => [cell.closest('td'), cell, ...cell.querySelectorAll('*')])
    .filter((el) => el.scrollWidth > el.clientWidth + 1)
    .map((el) => el.tagName + ' "' + el.textContent + '" ' + el.scrollWidth + '>' + el.clientWidth);
  // A table wider than its card scrolls inside it: its right edge then lies past the card's.
  const card = table.closest('.mantine-Paper-root').getBoundingClientRect();
  const sideways = Math.round(table.getBoundingClientRect().right - (card.right - 16));
  return { wrapped, cut, rows: timeCells.length, sideways };
})()`;

test('root at 1440 px: a code block in the reply, then a log that fits, details unfolded', async () => {
  upstream.setDefaults({
    chunks: 4,
    chunkIntervalMs: 30,
    content: 'Here is code:\n\n```js\nconst answer = 42;\n```\n',
    usage: { prompt_tokens: 9, completion_tokens: 7 },
  });
  const page = await session.openPage({ viewport: DESKTOP });
  await signInAsRoot(page);
  await page.goto('/playground');
  const reply = await ask(page, 'Show me code');
  await expectText(reply.locator('pre code'), /const answer = 42;/);
  await shoot(page, 'playground-code-zh-CN-light-1440');

  for (const [lang, scheme] of [
    ['zh-CN', 'light'],
    ['en', 'dark'],
  ] as const) {
    await page.evaluate(
      `localStorage.setItem('language', '${lang}'); localStorage.setItem('color-scheme', '${scheme}')`,
    );
    await page.goto('/log');
    const row = page
      .locator('[data-testid^="log-row-"]')
      .filter({ hasText: 'gpt-4o-mini' })
      .first();
    await row.waitFor();
    // Admins see the channel by name and the group.
    await expectText(row, /mock/);
    await expectText(row, /default/);
    const fit = await page.evaluate<LogFit>(MEASURE_LOG);
    expect(fit.rows).toBeGreaterThan(0);
    expect(fit.wrapped).toEqual([]);
    expect(fit.cut).toEqual([]);
    expect(fit.sideways).toBeLessThanOrEqual(0);
    await shoot(page, `log-${lang}-${scheme}-1440`);

    await row.getByRole('button', { name: lang === 'en' ? 'Show details' : '展开详情' }).click();
    const id = ((await row.getAttribute('data-testid')) ?? '').replace('log-row-', '');
    await expectText(page.getByTestId(`log-detail-${id}`), lang === 'en' ? /ratio/i : /倍率/);
    await shoot(page, `log-details-${lang}-${scheme}-1440`);
  }
});

test('an empty balance reads as a message with a link to the wallet', async () => {
  upstream.setDefaults({
    content: 'never sent',
    usage: { prompt_tokens: 1, completion_tokens: 1 },
  });
  const page = await session.openPage({ viewport: DESKTOP });
  const username = unique('broke');
  await register(page, username, 'broke-password');
  await signIn(page, username, 'broke-password');
  const self = await pageApi<{ id: number }>(page, 'get', '/api/user/self');
  const root = await rootApi(session);
  await root.call('put', '/api/user/', { id: self.id, quota: 0 });
  await root.close();

  await page.goto('/playground');
  // The relay hears of the new balance from the log a moment later: ask until it refuses.
  let reply = await ask(page, 'hello');
  for (let tries = 0; (await reply.getAttribute('data-status')) !== 'error' && tries < 10; tries++)
    reply = await ask(page, 'hello');
  const error = reply.getByTestId('reply-error');
  await expectText(error, /额度不足/);
  expect(await error.textContent()).not.toContain('{');
  const topUp = reply.getByTestId('reply-topup');
  expect(await topUp.getAttribute('href')).toBe('/topup');
  await shoot(page, 'playground-error-zh-CN-light-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, 'playground-error-zh-CN-light-390');
});
