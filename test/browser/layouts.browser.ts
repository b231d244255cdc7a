import type { Page } from 'playwright-core';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import {
  expectAttribute,
  poll,
  shoot,
  signInAsRoot,
  useBrowserSession,
  unique,
  type Locator,
  pageApi,
} from './browser-helpers';

// Every console page, with data in it, in zh-CN and en, light and dark, at desktop
// width and at phone width (390 px). At phone width the page body must not scroll sideways (a wide
// table scrolls inside its own container) and the main actions must be on screen and clickable; in
// English no Chinese text may be left, in neither language a raw i18n key; in dark mode nothing may
// keep a light background. The pictures land in test-artifacts/screenshots/layout-*.png.

jest.setTimeout(300_000);

const MODELS = ['gpt-4o-mini'];
/** Listed by the channel but priced nowhere: the pricing page says so in every variant. */
const UNPRICED_MODEL = 'layout-unpriced-model';
/** Served only by a channel on a port nothing listens on: its call is the log's error row. */
const FAILING_MODEL = 'gpt-3.5-turbo';
const DESKTOP = 1440;
const PHONE = 390;
let upstream: MockUpstream;
const session = useBrowserSession();

beforeAll(async () => {
  upstream = await MockUpstream.start({ defaults: { models: MODELS, latencyMs: 20 } });
});

afterAll(async () => {
  await upstream?.close();
});

type Lang = 'zh-CN' | 'en';
type Text = Record<Lang, string>;
const text = (zh: string, en: string): Text => ({ 'zh-CN': zh, en });

/**
 * A channel on the mock upstream, a token that used it, codes (one redeemed): every table has rows.
 * A dead channel's failed call and an unpriced model, so the error row and "no price set" are
 * shown in every language, theme and width too.
 */
async function seed(page: Page): Promise<void> {
  await pageApi(page, 'post', '/api/channel/', {
    type: 1,
    name: unique('layout-channel-'),
    key: 'sk-layout',
    base_url: upstream.url,
    models: [...MODELS, UNPRICED_MODEL].join(','),
  });
  await pageApi(page, 'post', '/api/channel/', {
    type: 1,
    name: unique('layout-dead-'),
    key: 'sk-layout-dead',
    base_url: 'http://127.0.0.1:9',
    models: FAILING_MODEL,
  });
  const codes = await pageApi<string[]>(page, 'post', '/api/redemption/', {
    name: 'layout-code',
    quota: 5_000_000,
    count: 3,
  });
  await pageApi(page, 'post', '/api/user/topup', { key: codes[0] });
  // A chat link, so the sidebar has its chat submenu and /chat/0 embeds something.
  await pageApi(page, 'put', '/api/option/', {
    key: 'Chats',
    value: JSON.stringify([{ 'Layout chat': 'about:blank#{key}' }]),
  });
  // Epay configured (ServerAddress first, the Epay keys need it), so /topup shows its
  // online top-up card; the pay address is never called.
  for (const [key, value] of [
    ['ServerAddress', session.gateway.url],
    ['PayAddress', 'http://127.0.0.1:9'],
    ['EpayId', '1001'],
    ['EpayKey', 'layout-epay-key'],
  ]) {
    await pageApi(page, 'put', '/api/option/', { key, value });
  }
  await pageApi(page, 'post', '/api/token/', {
    name: 'layout-token',
    remain_quota: 500_000,
    expired_time: -1,
    unlimited_quota: false,
  });
  const tokens = await pageApi<{ key: string }[]>(page, 'get', '/api/token/?p=0&size=10');
  const key = tokens[0]?.key ?? '';
  // The relay learns of the new token from the log a moment later: ask until it answers.
  let last = '';
  await poll(
    async () => {
      const reply = await page.context().request.post('/v1/chat/completions', {
        headers: { Authorization: `Bearer sk-${key}` },
        data: { model: MODELS[0], messages: [{ role: 'user', content: 'hello' }] },
      });
      last = `${reply.status()} ${await reply.text()}`;
      return reply.status() === 200;
    },
    async () => `the relay did not serve the seeded token: ${last}`,
  );
  const failed = await page.context().request.post('/v1/chat/completions', {
    headers: { Authorization: `Bearer sk-${key}` },
    data: { model: FAILING_MODEL, messages: [{ role: 'user', content: 'hello' }] },
  });
  if (failed.status() !== 502) throw new Error(`the dead channel answered ${failed.status()}`);
}

const expectValue = (locator: Locator, value: string) =>
  poll(
    async () => (await locator.inputValue()) === value,
    async () => `expected the value "${value}", got "${await locator.inputValue()}"`,
  );

const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });
const button = (scope: Page | Locator, name: string) =>
  scope.getByRole('button', { name, exact: true });

interface PageCase {
  name: string;
  path: string;
  /** Resolves once the page shows its data. */
  ready: (page: Page, lang: Lang) => Promise<void>;
  /** What a user comes to the page for: on screen and clickable at every width. */
  actions: (page: Page, lang: Lang) => Locator[];
}

const SEARCH = text('查询', 'Search');

const PAGES: PageCase[] = [
  {
    name: 'token',
    path: '/token',
    ready: (p) => p.getByTestId('token-row-layout-token').waitFor(),
    actions: (p, l) => [
      button(p, text('添加令牌', 'Add token')[l]),
      button(p, SEARCH[l]),
      p.getByTestId('token-row-layout-token').getByRole('button').last(),
    ],
  },
  {
    name: 'redemption',
    path: '/redemption',
    ready: (p) => p.locator('[data-testid^="redemption-row-"]').first().waitFor(),
    actions: (p, l) => [button(p, text('添加兑换码', 'Add codes')[l]), button(p, SEARCH[l])],
  },
  {
    name: 'topup',
    path: '/topup',
    // The online top-up card (Epay) and the orders card (root: every user's).
    ready: (p, l) => heading(p, text('在线充值', 'Online top-up')[l]).waitFor(),
    actions: (p, l) => [
      button(p, text('兑换', 'Redeem')[l]),
      button(p, text('支付宝', 'Alipay')[l]),
    ],
  },
  {
    name: 'log',
    path: '/log',
    // The seed's calls: one served, one failed (its error row).
    ready: (p, l) =>
      p
        .locator('[data-testid^="log-row-"]')
        .getByText(text('错误', 'Error')[l], { exact: true })
        .first()
        .waitFor(),
    actions: (p, l) => [button(p, SEARCH[l])],
  },
  {
    // The drawing and task logs (no task in the seed: their filters and empty tables).
    name: 'midjourney',
    path: '/midjourney',
    ready: (p, l) => heading(p, text('绘图日志', 'Drawing log')[l]).waitFor(),
    actions: (p, l) => [button(p, SEARCH[l])],
  },
  {
    name: 'task',
    path: '/task',
    ready: (p, l) => heading(p, text('任务日志', 'Task log')[l]).waitFor(),
    actions: (p, l) => [button(p, SEARCH[l])],
  },
  {
    // The public pricing page (the seeded channel's model, priced in the default group).
    name: 'pricing',
    path: '/pricing',
    ready: async (p, l) => {
      await p.getByTestId('pricing-row-gpt-4o-mini').waitFor();
      await p
        .getByTestId(`pricing-row-${UNPRICED_MODEL}`)
        .getByText(text('未配置价格', 'No price set')[l])
        .first()
        .waitFor();
    },
    actions: (p) => [p.getByTestId('pricing-filter'), p.getByTestId('pricing-group')],
  },
  {
    // The data dashboard (root's own relay call from the seed: charts drawn).
    name: 'detail',
    path: '/detail',
    ready: (p) =>
      p.getByTestId('dashboard-chart-quota').locator('.recharts-surface').first().waitFor(),
    actions: (p, l) => [button(p, SEARCH[l]), p.getByTestId('dashboard-granularity')],
  },
  {
    name: 'channel',
    path: '/channel',
    ready: (p) => p.locator('[data-testid^="channel-row-"]').first().waitFor(),
    actions: (p, l) => [
      button(p, text('添加渠道', 'Add channel')[l]),
      p.locator('[data-testid^="channel-row-"]').first().getByRole('button').last(),
    ],
  },
  {
    name: 'channel-add',
    path: '/channel/add',
    ready: (p, l) =>
      p.getByRole('dialog').getByText(text('创建新的渠道', 'Create a channel')[l]).waitFor(),
    actions: (p, l) => [button(p.getByRole('dialog'), text('提交', 'Submit')[l])],
  },
  {
    name: 'playground',
    path: '/playground',
    // Send is enabled once a model is chosen (the seeded channel's) and there is something to send.
    ready: async (p, l) => {
      await heading(p, text('操练场', 'Playground')[l]).waitFor();
      await expectValue(p.getByTestId('playground-model'), MODELS[0] ?? '');
      await p.getByTestId('playground-input').fill('hello');
    },
    actions: (p) => [p.getByTestId('playground-input'), p.getByTestId('playground-send')],
  },
  {
    name: 'user',
    path: '/user',
    ready: (p) => p.getByTestId('user-row-root').waitFor(),
    actions: (p, l) => [button(p, text('添加用户', 'Add user')[l]), button(p, SEARCH[l])],
  },
  {
    name: 'user-edit',
    path: '/user/edit/1',
    ready: (p, l) => p.getByLabel(text('用户名', 'Username')[l], { exact: true }).waitFor(),
    actions: (p, l) => [button(p, text('提交', 'Submit')[l])],
  },
  {
    // The history drawer of a user row (root's own: changes and who-did-what).
    name: 'user-history',
    path: '/user',
    ready: async (p, l) => {
      await p
        .getByTestId('user-row-root')
        .getByRole('button', { name: text('更多操作', 'More actions')[l] })
        .click();
      await p.getByRole('menuitem', { name: text('历史', 'History')[l], exact: true }).click();
      await p
        .getByRole('dialog', { name: text('用户历史：root', 'User history: root')[l] })
        .getByTestId('history-list')
        .waitFor();
    },
    actions: (p, l) => [
      p.getByRole('dialog').getByRole('tab', { name: text('余额回溯', 'Balance at')[l] }),
    ],
  },
  {
    // The chat embed page (an iframe of the configured link, with the first enabled key).
    name: 'chat',
    path: '/chat/0',
    ready: (p) => p.getByTestId('chat-frame').waitFor(),
    actions: (p) => [p.getByTestId('chat-frame')],
  },
  {
    // new-api's first-run wizard (root still has its default password in this suite).
    name: 'setup',
    path: '/setup',
    ready: (p, l) => heading(p, text('系统初始化', 'System setup')[l]).waitFor(),
    actions: (p, l) => [button(p, text('初始化系统', 'Set up the system')[l])],
  },
  {
    name: 'password-reset-confirm',
    path: '/user/reset?email=user%40example.com&token=abc',
    ready: (p, l) => heading(p, text('密码重置确认', 'Confirm password reset')[l]).waitFor(),
    actions: (p, l) => [button(p, text('确认重置密码', 'Confirm password reset')[l])],
  },
  {
    name: 'setting-personal',
    path: '/setting',
    ready: async (p, l) => {
      await p.getByRole('tab', { name: text('个人设置', 'Personal')[l] }).waitFor();
      await p.getByTestId('notification-card').waitFor();
    },
    actions: (p, l) => [
      p.getByRole('tab', { name: text('运营设置', 'Operation')[l] }),
      button(
        p.getByTestId('notification-card'),
        text('保存通知设置', 'Save notification settings')[l],
      ),
      button(p.getByTestId('notification-card'), text('发送测试通知', 'Send a test')[l]),
    ],
  },
  {
    name: 'setting-operation',
    path: '/setting?tab=operation',
    ready: (p, l) => heading(p, text('倍率设置', 'Ratios')[l]).waitFor(),
    actions: (p, l) => [
      p
        .getByRole('region', { name: text('通用设置', 'General')[l] })
        .getByRole('button', { name: text('保存', 'Save')[l] }),
    ],
  },
  {
    name: 'setting-system',
    path: '/setting?tab=system',
    ready: (p, l) => heading(p, text('配置 SMTP', 'SMTP')[l]).waitFor(),
    actions: (p, l) => [
      p
        .getByRole('region', { name: text('配置 SMTP', 'SMTP')[l] })
        .getByRole('button', { name: text('保存', 'Save')[l] }),
    ],
  },
  {
    name: 'setting-other',
    path: '/setting?tab=other',
    ready: (p, l) => heading(p, text('公告', 'Notice')[l]).waitFor(),
    actions: (p, l) => [
      p
        .getByRole('region', { name: text('公告', 'Notice')[l] })
        .getByRole('button', { name: text('保存', 'Save')[l] }),
    ],
  },
];

/** The drawers that open from a page's add button. */
const DRAWERS = [
  {
    name: 'token-drawer',
    path: '/token',
    open: text('添加令牌', 'Add token'),
    title: text('创建新的令牌', 'Create a token'),
  },
  {
    name: 'redemption-drawer',
    path: '/redemption',
    open: text('添加兑换码', 'Add codes'),
    title: text('创建新的兑换码', 'Create redemption codes'),
  },
];

interface Findings {
  /** How far the page body scrolls sideways. */
  overflow: number;
  /** Elements that stick out of the viewport without a scrolling container to hold them. */
  sticking: string[];
  /** Tables not inside a horizontally scrolling container that fits the viewport. */
  loose: string[];
  /** Visible text of the page and its dialogs (raw keys, unfilled placeholders). */
  text: string;
  /** The same without what is marked `lang="zh…"` (data the server writes in Chinese). */
  unmarked: string;
  /** In dark mode: elements with a light background or near-black text. */
  light: string[];
}

/** Measures the page in the browser (a string so the bundler's helpers do not leak into it). */
const MEASURE = `(() => {
  const width = window.innerWidth;
  const describe = (el) => {
    const id = el.getAttribute('data-testid');
    const cls = (el.getAttribute('class') || '').split(' ').filter(Boolean).slice(0, 2).join('.');
    const words = (el.innerText || el.getAttribute('aria-label') || '').trim().slice(0, 40);
    const box = el.getBoundingClientRect();
    return el.tagName.toLowerCase() + (id ? '[' + id + ']' : '') + (cls ? '.' + cls : '') +
      ' "' + words.replace(/\\s+/g, ' ') + '" ' + Math.round(box.left) + '..' + Math.round(box.right);
  };
  const scrolls = (el) => /(auto|scroll|hidden|clip)/.test(getComputedStyle(el).overflowX);
  const inside = (box) => box.right <= width + 1 && box.left >= -1;
  // Held: some ancestor that fits the viewport clips or scrolls it.
  const held = (el) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (scrolls(up) && inside(up.getBoundingClientRect())) return true;
    }
    return false;
  };
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
  };
  const main = document.querySelector('main') || document.body;
  const all = [...document.body.querySelectorAll('*')].filter(visible);
  const sticking = all
    .filter((el) => !inside(el.getBoundingClientRect()) && !held(el))
    // The mobile navbar slides off-screen to the left on purpose.
    .filter((el) => !el.closest('[data-testid="sidebar"]'))
    .map(describe);
  const loose = [...main.querySelectorAll('table')].filter(visible).filter((table) => {
    for (let up = table.parentElement; up && up !== main; up = up.parentElement) {
      if (/(auto|scroll)/.test(getComputedStyle(up).overflowX)) {
        return !inside(up.getBoundingClientRect());
      }
    }
    return true;
  }).map(describe);
  const rgb = (value) => (value.match(/[\\d.]+/g) || []).map(Number);
  const light = document.documentElement.getAttribute('data-mantine-color-scheme') !== 'dark' ? [] :
    all.filter((el) => main.contains(el) || el.closest('[role="dialog"]')).filter((el) => {
      const style = getComputedStyle(el);
      const [r, g, b, a = 1] = rgb(style.backgroundColor);
      // Small knobs (a switch's thumb) are light in Mantine's dark theme too: panels are not.
      const box = el.getBoundingClientRect();
      const panel = box.width > 24 && box.height > 24;
      const lightBack = panel && a > 0.5 && r > 200 && g > 200 && b > 200;
      const hasText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      const [tr, tg, tb] = rgb(style.color);
      const darkText = hasText && tr < 60 && tg < 60 && tb < 60;
      return lightBack || darkText;
    }).map(describe);
  const text = [];
  const unmarked = [];
  for (const root of [main, ...document.querySelectorAll('[role="dialog"]')]) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const words = node.textContent.trim();
      if (!words || !node.parentElement || !node.parentElement.checkVisibility()) continue;
      text.push(words);
      const marked = node.parentElement.closest('[lang]');
      if (marked === document.documentElement || !marked.getAttribute('lang').startsWith('zh'))
        unmarked.push(words);
    }
  }
  return {
    overflow: document.documentElement.scrollWidth - width,
    sticking: sticking.slice(0, 15),
    loose,
    text: text.join('\\n'),
    unmarked: unmarked.join('\\n'),
    light: light.slice(0, 15),
  };
})()`;

const HAN = /[\u3400-\u9fff]+/g;
// i18next shows a missing key as the key itself: `tokens.table.name`.
const RAW_KEY =
  /(?<![\w.:/-])(common|shell|auth|users|setting|home|tokens|redemptions|wallet|logs|playground|channels|status|history|dashboard|pricing|chat|setup)\.[a-zA-Z]+/g;

async function check(page: Page, label: string, lang: Lang, width: number): Promise<string[]> {
  const found = await page.evaluate<Findings>(MEASURE);
  const problems: string[] = [];
  if (width <= 600) {
    if (found.overflow > 0) problems.push(`the page scrolls sideways by ${found.overflow} px`);
    if (found.sticking.length) problems.push(`sticks out: ${found.sticking.join(' | ')}`);
    if (found.loose.length)
      problems.push(`table not in its own scroller: ${found.loose.join(' | ')}`);
  }
  if (lang === 'en') {
    const han = found.unmarked.match(HAN);
    if (han) problems.push(`Chinese left in English: ${[...new Set(han)].join(', ')}`);
  }
  const raw = found.text.match(RAW_KEY);
  if (raw) problems.push(`raw i18n keys: ${[...new Set(raw)].join(', ')}`);
  if (found.text.includes('{{')) problems.push('an unfilled {{placeholder}}');
  if (found.light.length) problems.push(`light in dark mode: ${found.light.join(' | ')}`);
  return problems.map((problem) => `${label}: ${problem}`);
}

/** On screen (inside the viewport's width) and clickable: not covered, not disabled by layout. */
async function checkReachable(page: Page, label: string, actions: Locator[]): Promise<string[]> {
  const width = page.viewportSize()?.width ?? 0;
  const problems: string[] = [];
  for (const [index, action] of actions.entries()) {
    await action.scrollIntoViewIfNeeded();
    const box = await action.boundingBox();
    if (!box || box.x < 0 || box.x + box.width > width + 1) {
      problems.push(`${label}: action ${index} is off screen (${JSON.stringify(box)})`);
      continue;
    }
    // A trial click runs Playwright's actionability checks (visible, stable, receives events).
    await action.click({ trial: true, timeout: 5_000 }).catch((error: Error) => {
      problems.push(`${label}: action ${index} cannot be clicked: ${error.message.split('\n')[0]}`);
    });
  }
  return problems;
}

/** The data every variant shows, seeded once by the first. */
let seeded: Promise<void> | undefined;
const VARIANTS = [
  ['zh-CN', 'light'],
  ['zh-CN', 'dark'],
  ['en', 'light'],
  ['en', 'dark'],
] as const;

// One test per language and scheme: each stays well inside the timeout on a loaded machine.
test.each(VARIANTS)('every page in %s, %s, at desktop and phone width', async (lang, scheme) => {
  const page = await session.openPage();
  await signInAsRoot(page);
  seeded ??= seed(page);
  await seeded;
  const problems: string[] = [];
  await page.evaluate(
    `localStorage.setItem('language', '${lang}'); localStorage.setItem('color-scheme', '${scheme}')`,
  );
  for (const width of [DESKTOP, PHONE]) {
    await page.setViewportSize({ width, height: width > 600 ? 860 : 844 });
    const where = `${lang} ${scheme} ${width}`;
    for (const item of PAGES) {
      await page.goto(item.path);
      await item.ready(page, lang);
      await expectAttribute(page.locator('html'), 'data-mantine-color-scheme', scheme);
      await expectAttribute(page.locator('html'), 'lang', lang);
      await shoot(page, `layout-${item.name}-${lang}-${scheme}-${width}`);
      const label = `${item.path} (${where})`;
      problems.push(...(await check(page, label, lang, width)));
      problems.push(...(await checkReachable(page, label, item.actions(page, lang))));
    }
    for (const drawer of DRAWERS) {
      await page.goto(drawer.path);
      await button(page, drawer.open[lang]).click();
      const dialog = page.getByRole('dialog', { name: drawer.title[lang] });
      await dialog.waitFor();
      await shoot(page, `layout-${drawer.name}-${lang}-${scheme}-${width}`);
      const label = `${drawer.name} (${where})`;
      problems.push(...(await check(page, label, lang, width)));
      const submit = button(dialog, text('提交', 'Submit')[lang]);
      problems.push(...(await checkReachable(page, label, [submit])));
    }
  }
  expect(problems).toEqual([]);
});

test('the layout checks see what they look for', async () => {
  // Guards the checks above against passing vacuously: a page broken on purpose must be caught.
  const page = await session.openPage({ viewport: { width: PHONE, height: 844 } });
  await page.goto('/about');
  await page.evaluate("localStorage.setItem('color-scheme', 'dark')");
  await page.goto('/about');
  await expectAttribute(page.locator('html'), 'data-mantine-color-scheme', 'dark');
  expect(await check(page, 'about', 'zh-CN', PHONE)).toEqual([]);
  await page.evaluate(`(() => {
    const main = document.querySelector('main');
    const wide = document.createElement('div');
    wide.style.cssText = 'width: 900px; height: 40px; background: #fff';
    wide.textContent = 'tokens.title 中文 {{count}}';
    const table = document.createElement('table');
    table.innerHTML = '<tr><td style="min-width: 800px">cell</td></tr>';
    main.append(wide, table);
  })()`);
  const broken = (await check(page, 'about', 'en', PHONE)).join('\n');
  expect(broken).toMatch(/scrolls sideways by \d+ px/);
  expect(broken).toMatch(/sticks out: div/);
  expect(broken).toMatch(/table not in its own scroller: table/);
  expect(broken).toMatch(/Chinese left in English: .*中文/);
  expect(broken).toMatch(/raw i18n keys: tokens\.title/);
  expect(broken).toMatch(/unfilled/);
  expect(broken).toMatch(/light in dark mode: div/);
});

test('the token form marks an empty name on its field and brings it into view, at both widths', async () => {
  for (const width of [1440, PHONE]) {
    const page = await session.openPage({
      viewport: { width, height: width === PHONE ? 844 : 900 },
    });
    await signInAsRoot(page);
    await page.goto('/token');
    await page.getByRole('button', { name: '添加令牌' }).click();
    const form = page.getByTestId('token-form');
    await form.waitFor();
    // The submit button is at the bottom of a long drawer: the name field scrolls out of view.
    await form.getByRole('button', { name: '提交' }).scrollIntoViewIfNeeded();
    await form.getByRole('button', { name: '提交' }).click();
    const name = form.getByRole('textbox', { name: '名称' });
    await expectAttribute(name, 'aria-invalid', 'true');
    await form.getByText('请输入令牌名称！').waitFor();
    await poll(
      async () => (await form.locator('input[data-field="name"]:focus').count()) === 1,
      async () => 'the name field did not get the focus',
    );
    await poll(
      async () => {
        const box = await name.boundingBox();
        return box !== null && box.y >= 0 && box.y + box.height <= (width === PHONE ? 844 : 900);
      },
      async () => `the name field is off-screen: ${JSON.stringify(await name.boundingBox())}`,
    );
    await shoot(page, `layout-token-empty-name-${width}`);
  }
});
