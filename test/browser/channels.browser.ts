import type { Page } from 'playwright-core';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import {
  expectAttribute,
  expectCount,
  expectText,
  pageApi,
  shoot,
  signInAsRoot,
  useBrowserSession,
  unique,
  chooseRowMenu,
} from './browser-helpers';

// 管理渠道 in Debian's chromium against the built gateway, with the mock upstream as the provider:
// the browser proof of channel management. Screenshots land in test-artifacts/screenshots/channels-*.png.

jest.setTimeout(120_000);

const MODELS = ['mock-gpt-a', 'mock-gpt-b'];

let upstream: MockUpstream;
const session = useBrowserSession();

beforeAll(async () => {
  upstream = await MockUpstream.start({ defaults: { models: MODELS, latencyMs: 40 } });
});

afterAll(async () => {
  await upstream?.close();
});

/** Root signed in (the default-password reminder put aside), on the channel page. */
async function openChannelsAsRoot(): Promise<Page> {
  const page = await session.openPage();
  await signInAsRoot(page);
  await page.getByRole('navigation', { name: '导航' }).getByRole('link', { name: '渠道' }).click();
  await page.waitForURL('**/channel');
  await page.getByRole('heading', { name: '管理渠道' }).waitFor();
  return page;
}

/** Toasts stack over the right end of the rows (the actions): close them before the next click. */
async function dismissToasts(page: Page): Promise<void> {
  const close = page.locator('.mantine-Notification-closeButton');
  for (let round = 0; round < 10 && (await close.count()) > 0; round += 1) {
    // A toast already leaving may detach under the click: try the next one.
    await close
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
    await page.waitForTimeout(250);
  }
}

const rowOf = (page: Page, name: string) =>
  page.locator('[data-testid^="channel-row-"]').filter({ hasText: name });

/** Creates a channel over the API with the page's session (as the console would). */
async function createChannelByApi(page: Page, name: string): Promise<void> {
  // The console keeps the signed-in user in localStorage (a string expression: no DOM types here).
  const user = await page.evaluate<string | null>("localStorage.getItem('user')");
  const { id } = JSON.parse(user ?? '{}') as { id: number };
  const answer = await page.context().request.post('/api/channel/', {
    headers: { 'New-Api-User': String(id) },
    data: { type: 1, name, key: `sk-${name}`, base_url: upstream.url, models: MODELS.join(',') },
  });
  expect(((await answer.json()) as { success: boolean }).success).toBe(true);
}

test('add a channel against the mock upstream, fetch its models, test it, disable and re-enable it', async () => {
  const page = await openChannelsAsRoot();
  await shoot(page, 'channels-empty');
  const name = unique('mock-');

  await page.getByRole('button', { name: '添加渠道' }).click();
  await page.waitForURL('**/channel/add');
  const panel = page.getByRole('dialog');
  await panel.getByText('创建新的渠道').waitFor();
  await panel.getByRole('textbox', { name: '名称', exact: true }).fill(name);
  await panel.getByRole('textbox', { name: '代理地址', exact: true }).fill(`${upstream.url}/`);
  await panel.getByRole('button', { name: '获取模型列表' }).click();
  await page.getByText('请填写密钥').waitFor();
  await panel.getByRole('textbox', { name: '密钥', exact: true }).fill('sk-browser-1');
  await panel.getByRole('button', { name: '获取模型列表' }).click();
  await page.getByText('已获取 2 个模型').waitFor();
  expect(upstream.requestsTo('/models').at(-1)?.key).toBe('sk-browser-1');
  await expectAttribute(panel.locator('input[name="models"]'), 'value', MODELS.join(','));
  await shoot(page, 'channels-add');
  await panel.getByRole('button', { name: '提交' }).click();
  await page.getByText('渠道创建成功！').waitFor();
  await page.waitForURL('**/channel');

  const row = rowOf(page, name);
  await row.getByText('已启用').waitFor();
  await row.getByText('未测试').waitFor();

  // Test: the mock answers after 40 ms, so the time shows in the green band.
  await row.getByRole('button', { name: '测试', exact: true }).click();
  await page.getByText(new RegExp(`渠道 ${name} 测试成功，耗时 \\d+\\.\\d{2} 秒。`)).waitFor();
  const responseTime = row.locator('[data-band]');
  await expectText(responseTime, /^\d+\.\d{2} 秒$/);
  await expectAttribute(responseTime, 'data-band', 'green');
  expect(upstream.requestsTo('/chat/completions').at(-1)?.key).toBe('sk-browser-1');

  // The test's toast sits top-right, over the first row's actions, as it would for a person.
  await dismissToasts(page);
  await row.getByRole('button', { name: '更多操作' }).click();
  await page.getByRole('menuitem', { name: '更新余额' }).click();
  await page.getByText(`渠道 ${name} 余额更新成功！`).waitFor();
  await expectText(row.getByTestId('channel-balance'), /^\$(?!0\.00)\d+\.\d{2}$/);
  await shoot(page, 'channels-tested');

  await dismissToasts(page);
  await chooseRowMenu(page, row, '禁用');
  await row.getByText('已禁用').waitFor();
  await expectAttribute(row, 'data-disabled', 'true');
  await shoot(page, 'channels-disabled');
  await chooseRowMenu(page, row, '启用');
  await row.getByText('已启用').waitFor();
  await expectAttribute(row, 'data-disabled', null);

  await dismissToasts(page);
  await row.getByRole('button', { name: '编辑' }).click();
  await panel.getByText('更新渠道信息').waitFor();
  await expectAttribute(panel.getByRole('textbox', { name: '名称', exact: true }), 'value', name);
  // The key is write-only: the edit panel never shows it.
  expect(await panel.getByRole('textbox', { name: '密钥', exact: true }).inputValue()).toBe('');
  await shoot(page, 'channels-edit');
});

test('channels made elsewhere appear live; batch-delete two; test all reports through pushes', async () => {
  const page = await openChannelsAsRoot();
  const first = unique('batch-a-');
  const second = unique('batch-b-');
  const kept = unique('batch-c-');
  // Created over the API: the open page learns of them through the socket, without a reload.
  for (const name of [first, second, kept]) await createChannelByApi(page, name);
  await rowOf(page, kept).waitFor();
  await rowOf(page, first).waitFor();

  await page.getByRole('button', { name: '删除所选通道' }).click();
  await page.getByText('请先选择要删除的通道！').waitFor();

  await page.getByRole('checkbox', { name: `选择渠道 ${first}` }).check();
  await page.getByRole('checkbox', { name: `选择渠道 ${second}` }).check();
  await page.getByText('已选择 2 个').waitFor();
  await shoot(page, 'channels-selected');
  await page.getByRole('button', { name: '删除所选通道' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
  await page.getByText('已删除 2 个通道！').waitFor();
  await expectCount(rowOf(page, first), 0);
  await expectCount(rowOf(page, second), 0);
  await expectCount(rowOf(page, kept), 1);

  // Test all runs in the background; each result reaches the table as a push.
  const keptTime = rowOf(page, kept).locator('[data-band]');
  await expectAttribute(keptTime, 'data-band', 'untested');
  await page.getByRole('button', { name: '测试所有通道' }).click();
  await page.getByText('已开始测试所有已启用通道，结果将自动刷新。').waitFor();
  await expectText(keptTime, /^\d+\.\d{2} 秒$/);
  await dismissToasts(page);
  await shoot(page, 'channels-tested-all');
});

test('the channel page in English and on a phone', async () => {
  const page = await openChannelsAsRoot();
  const name = unique('english-');
  await createChannelByApi(page, name);
  await rowOf(page, name).waitFor();
  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await page.getByRole('heading', { name: 'Channels' }).waitFor();
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await page.getByText('Please select the channels to delete first!').waitFor();
  await rowOf(page, name).getByText('Enabled', { exact: true }).waitFor();
  await rowOf(page, name).getByText('Not tested').waitFor();
  await dismissToasts(page);
  await shoot(page, 'channels-en');

  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: '简体中文' }).click();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: '添加渠道' }).click();
  await page.getByRole('dialog').getByText('创建新的渠道').waitFor();
  await shoot(page, 'channels-add-mobile');
});

/** A port nothing listens on: a channel there fails with ECONNREFUSED. */
const DEAD_URL = 'http://127.0.0.1:9';
/** A model only the dead channel serves (it has a default price). */
const DEAD_MODEL = 'gpt-4o-mini';

test('a failed test is red, named and explained; a failed call is an error row in the log', async () => {
  const page = await openChannelsAsRoot();
  await page.setViewportSize({ width: 1440, height: 900 });
  const name = unique('dead-');
  await pageApi(page, 'post', '/api/channel/', {
    type: 1,
    name,
    key: `sk-${name}`,
    base_url: DEAD_URL,
    models: DEAD_MODEL,
  });
  const row = rowOf(page, name);
  await row.getByRole('button', { name: '测试', exact: true }).click();
  await page.getByText(`渠道 ${name} 测试失败：连接被拒绝，请检查渠道的地址和端口`).waitFor();
  await page.getByText(/^原始信息：.*ECONNREFUSED/).waitFor();
  const responseTime = row.locator('[data-band]');
  await expectText(responseTime, /^失败$/);
  await expectAttribute(responseTime, 'data-band', 'failed');
  await row.getByTestId('channel-last-failure').waitFor();
  await shoot(page, 'channels-test-failed');
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, 'channels-test-failed-mobile');

  // A relayed call that only the dead channel could serve: the client gets an error, the log a row.
  await pageApi(page, 'post', '/api/token/', { name, unlimited_quota: true });
  const tokens = await pageApi<Array<{ name: string; key: string }>>(
    page,
    'get',
    '/api/token/?p=0&size=100',
  );
  const key = tokens.find((token) => token.name === name)!.key;
  const relayed = await page.context().request.post('/v1/chat/completions', {
    headers: { authorization: `Bearer sk-${key}` },
    data: { model: DEAD_MODEL, messages: [{ role: 'user', content: 'hi' }] },
  });
  expect(relayed.status()).toBe(502);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/log?type=5');
  // The row names the channel and the type; its details (status, upstream message) fold out under it.
  const errorRow = page.getByRole('row').filter({ hasText: name }).first();
  await errorRow.waitFor();
  await errorRow.getByText('错误', { exact: true }).waitFor();
  await errorRow.getByRole('button', { name: '展开详情' }).click();
  const details = page.locator('[data-testid^="log-detail-"]').filter({ hasText: 'ECONNREFUSED' });
  await details.getByText('状态码 502').waitFor();
  await shoot(page, 'channels-error-log');
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, 'channels-error-log-mobile');
});

test('the type picker finds a type by typing its name; an empty name is marked on its field', async () => {
  const page = await openChannelsAsRoot();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole('button', { name: '添加渠道' }).click();
  const panel = page.getByRole('dialog');
  await panel.getByText('创建新的渠道').waitFor();
  const type = panel.getByRole('combobox', { name: '类型' });
  await expectAttribute(type, 'value', 'OpenAI');
  await type.click();
  await type.fill('Claude');
  const options = page.getByRole('option');
  await expectCount(options, 2);
  await page.getByRole('option', { name: 'Anthropic Claude' }).waitFor();
  await page.getByRole('option', { name: 'AWS Claude' }).waitFor();
  await shoot(page, 'channels-type-search');
  await page.getByRole('option', { name: 'Anthropic Claude' }).click();
  await expectAttribute(type, 'value', 'Anthropic Claude');

  await page.setViewportSize({ width: 390, height: 844 });
  await panel.getByRole('button', { name: '提交' }).click();
  const name = panel.getByRole('textbox', { name: '名称', exact: true });
  await expectAttribute(name, 'aria-invalid', 'true');
  // Focused, so scrolled into view above the phone's fold.
  await expectCount(panel.locator('input[data-field="name"]:focus'), 1);
  await shoot(page, 'channels-empty-name-mobile');
});
