import { MockUpstream } from '@tollgate/testing/mock-upstream';
import {
  expectCount,
  expectText,
  poll,
  register,
  shoot,
  signIn,
  useBrowserSession,
  unique,
} from './browser-helpers';

// The playground in the browser: it streams a reply from the mock upstream through the built
// gateway, and the log page shows the consumption row with its receipt.

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
    chunkIntervalMs: 60,
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
