import type { Page } from 'playwright-core';
import {
  expectAttribute,
  expectText,
  poll,
  shoot,
  signInAsRoot,
  useBrowserSession,
  type Locator,
  pageApi,
  rootApi,
} from './browser-helpers';

// In the browser: the public /pricing page against the built gateway — prices from the
// options and the channels, the fuzzy model filter, the group switcher and copy-selected.
// Screenshots: test-artifacts/screenshots/pricing-*.png.

jest.setTimeout(120_000);

const session = useBrowserSession();

beforeAll(async () => {
  const root = await rootApi(session);
  const options: Array<[string, unknown]> = [
    ['ModelRatio', { 'gpt-4o': 1.25, 'gpt-4o-mini': 0.075, 'claude-3-haiku': 0.125 }],
    ['CompletionRatio', { 'gpt-4o': 4, 'gpt-4o-mini': 4, 'claude-3-haiku': 5 }],
    ['ModelPrice', { mj_imagine: 0.1 }],
    ['GroupRatio', { default: 1, vip: 0.5, svip: 1 }],
  ];
  for (const [key, value] of options) {
    await root.call('put', '/api/option/', { key, value: JSON.stringify(value) });
  }
  for (const [name, models, group] of [
    ['chat', 'gpt-4o,gpt-4o-mini,claude-3-haiku,my-own-model', 'default,vip'],
    ['drawing', 'mj_imagine', 'vip'],
  ]) {
    await root.call('post', '/api/channel/', {
      type: 1,
      name,
      key: `sk-${name}-key`,
      base_url: 'http://127.0.0.1:9',
      models,
      group,
    });
  }
  await root.close();
});

const ALL_MODELS = ['claude-3-haiku', 'gpt-4o', 'gpt-4o-mini', 'mj_imagine', 'my-own-model'];

const row = (page: Page, model: string) => page.getByTestId(`pricing-row-${model}`);

async function visibleModels(page: Page): Promise<string[]> {
  const ids = await page
    .locator('[data-testid^="pricing-row-"]')
    .evaluateAll((rows) => rows.map((el) => el.getAttribute('data-testid') ?? ''));
  return ids.map((id) => id.replace('pricing-row-', ''));
}

async function expectModels(page: Page, models: string[]): Promise<void> {
  await poll(
    async () => JSON.stringify(await visibleModels(page)) === JSON.stringify(models),
    async () => `expected rows ${models.join(',')}, got ${(await visibleModels(page)).join(',')}`,
  );
}

async function pickGroup(page: Page, label: string): Promise<void> {
  await page.getByRole('combobox', { name: '分组' }).click();
  await page.getByRole('option', { name: label }).click();
}

const price = (scope: Locator, pattern: RegExp) => expectText(scope, pattern);

test('anonymous visitors filter models fuzzily, switch groups and copy the selection', async () => {
  const page = await session.openPage({ permissions: ['clipboard-read', 'clipboard-write'] });
  await page.goto('/pricing');
  await row(page, 'gpt-4o').waitFor();
  await page.getByText('您还未登录，显示的是默认分组的价格，分组倍率为 1。').waitFor();
  await expectModels(page, ALL_MODELS);

  // Default group: ratio prices per 1M tokens; the vip-only per-call model is marked unavailable.
  await price(row(page, 'gpt-4o'), /提示 \$2\.50 \/ 1M tokens/);
  await price(row(page, 'gpt-4o'), /补全 \$10\.00 \/ 1M tokens/);
  await price(row(page, 'gpt-4o-mini'), /提示 \$0\.15 \/ 1M tokens/);
  await expectAttribute(row(page, 'mj_imagine'), 'data-available', 'false');
  await expectAttribute(row(page, 'gpt-4o'), 'data-available', 'true');
  // A served model with neither ratio nor price: said so, no tick, no invented ratio or price.
  const own = row(page, 'my-own-model');
  await expectAttribute(own, 'data-priced', 'false');
  await expectAttribute(row(page, 'gpt-4o'), 'data-priced', 'true');
  await expectText(own, /未配置价格/);
  expect(await own.getByLabel('所选分组可以使用该模型').count()).toBe(0);
  expect(await own.textContent()).not.toMatch(/37\.5|\$/);
  await shoot(page, 'pricing-default');

  // Fuzzy: contains, ignoring case.
  const filter = page.getByRole('textbox', { name: '模糊搜索模型名称' });
  await filter.fill('4O-M');
  await expectModels(page, ['gpt-4o-mini']);
  await filter.fill('HAIKU');
  await expectModels(page, ['claude-3-haiku']);
  await filter.fill('gpt');
  await expectModels(page, ['gpt-4o', 'gpt-4o-mini']);
  await filter.fill('');
  await expectModels(page, ALL_MODELS);

  // The vip group: ratio 0.5 halves every price, and the per-call model becomes usable.
  await pickGroup(page, 'vip（倍率 0.5）');
  await price(row(page, 'gpt-4o'), /提示 \$1\.25 \/ 1M tokens/);
  await price(row(page, 'gpt-4o'), /补全 \$5\.00 \/ 1M tokens/);
  await price(row(page, 'mj_imagine'), /\$0\.05 \/ 次/);
  await expectAttribute(row(page, 'mj_imagine'), 'data-available', 'true');
  await shoot(page, 'pricing-vip');

  // A group tag in a row switches back.
  await row(page, 'gpt-4o').getByRole('button', { name: '查看分组 default 的价格' }).click();
  await price(row(page, 'gpt-4o'), /提示 \$2\.50 \/ 1M tokens/);

  // Copy-selected: comma-joined, as new-api copies them.
  await row(page, 'gpt-4o').getByRole('checkbox').check();
  await row(page, 'mj_imagine').getByRole('checkbox').check();
  await page.getByRole('button', { name: '复制所选模型' }).click();
  await page.getByText('已复制到剪贴板！').waitFor();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe('gpt-4o,mj_imagine');
});

test('a signed-in user sees their group; prices follow a ratio changed in the settings', async () => {
  const page = await session.openPage();
  await signInAsRoot(page);
  await pageApi(page, 'put', '/api/option/', {
    key: 'GroupRatio',
    value: JSON.stringify({ default: 2, vip: 0.5, svip: 1 }),
  });

  await page.goto('/pricing');
  await page.getByText('您的分组为 default，分组倍率为 2。').waitFor();
  await price(row(page, 'gpt-4o'), /提示 \$5\.00 \/ 1M tokens/);
  await price(row(page, 'gpt-4o'), /补全 \$20\.00 \/ 1M tokens/);
  await shoot(page, 'pricing-signed-in');
});

test('the ratio settings list the served model without a price; filling it in prices it', async () => {
  const page = await session.openPage({ viewport: { width: 1440, height: 900 } });
  await signInAsRoot(page);
  await page.goto('/setting?tab=operation');
  const card = page.getByRole('region', { name: '模型价格' });
  const unpriced = card.getByTestId('unpriced-models');
  await expectText(unpriced, /1 个模型已有渠道提供但未配置价格/);
  await expectText(unpriced, /my-own-model/);
  await expectText(card.getByTestId('price-row-gpt-4o'), /gpt-4o/);
  await card.scrollIntoViewIfNeeded();
  await shoot(page, 'ratio-settings-unpriced');

  await unpriced.getByRole('button', { name: '加入表格并填写倍率' }).click();
  const ratio = card.getByLabel('my-own-model 的模型倍率');
  await ratio.fill('0.5');
  await card.getByRole('button', { name: '保存' }).click();
  await page.getByText('保存成功').first().waitFor();
  await shoot(page, 'ratio-settings-filled');

  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, 'ratio-settings-mobile');

  await page.goto('/pricing');
  await expectAttribute(row(page, 'my-own-model'), 'data-priced', 'true');
  await price(row(page, 'my-own-model'), /提示 \$2\.00 \/ 1M tokens/);
});

test('the pricing page in English at 1440 px and 390 px, with the unpriced model', async () => {
  const page = await session.openPage({ locale: 'en', viewport: { width: 1440, height: 900 } });
  const root = await rootApi(session);
  await root.call('put', '/api/option/', {
    key: 'ModelRatio',
    value: JSON.stringify({ 'gpt-4o': 1.25, 'gpt-4o-mini': 0.075, 'claude-3-haiku': 0.125 }),
  });
  await root.close();
  await page.goto('/pricing');
  await expectAttribute(row(page, 'my-own-model'), 'data-priced', 'false');
  await expectText(row(page, 'my-own-model'), /No price set/);
  await shoot(page, 'pricing-en');
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, 'pricing-en-mobile');
});
