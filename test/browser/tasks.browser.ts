import type { Page } from 'playwright-core';
import { MockTaskUpstream } from '@tollgate/testing';
import {
  expectText,
  pageApi,
  poll,
  register,
  rootApi,
  shoot,
  signIn,
  signInAsRoot,
  unique,
  useBrowserSession,
  type Locator,
} from './browser-helpers';

// The drawing log (/midjourney) and the task log (/task) in the browser: a user submits a
// Midjourney imagine and a Suno song through the built gateway to the mock task upstream, sees both
// rows queued, and, while the pages stay open (no reload), sees them finish once the mock advances
// and root runs a polling round (POST /api/task/poll): 成功 with the image thumbnail / the audio
// player. Root then sees every user's drawings with the channel column and the callback banner.
// Screenshots: test-artifacts/screenshots/tasks-*.png.

jest.setTimeout(180_000);

const session = useBrowserSession();
let upstream: MockTaskUpstream;
let root: Awaited<ReturnType<typeof rootApi>>;

beforeAll(async () => {
  upstream = await MockTaskUpstream.start();
  root = await rootApi(session);
  // DrawingEnabled, TaskEnabled (the pages shown) and MjNotifyEnabled off (the banner) are the
  // defaults; setting an option to its value is refused.
  await root.call('put', '/api/option/', { key: 'QuotaForNewUser', value: '5000000' });
  await root.call('post', '/api/channel/', {
    type: 5,
    name: 'mock-mj',
    key: 'mj-secret',
    base_url: upstream.url,
    models: 'mj_imagine,mj_upscale',
    group: 'default',
  });
  await root.call('post', '/api/channel/', {
    type: 36,
    name: 'mock-suno',
    key: 'suno-key',
    base_url: upstream.url,
    models: 'suno_music,suno_lyrics',
    group: 'default',
  });
});

afterAll(async () => {
  await root?.close();
  await upstream?.close();
});

/** Creates a token with the page's session; returns its key. */
async function createToken(page: Page): Promise<string> {
  await pageApi(page, 'post', '/api/token/', {
    name: 'tasks',
    remain_quota: 0,
    expired_time: -1,
    unlimited_quota: true,
  });
  const tokens = await pageApi<{ key: string }[]>(page, 'get', '/api/token/?p=0&size=10');
  return tokens[0]!.key;
}

/** A relay submission; the token may take a moment to reach the relay. Returns the reply body. */
async function submit<T>(
  page: Page,
  key: string,
  path: string,
  data: unknown,
  accepted: (body: T) => boolean,
) {
  let last = '';
  let reply: T | undefined;
  await poll(
    async () => {
      const answer = await page.context().request.post(path, {
        headers: { Authorization: `Bearer sk-${key}` },
        data,
      });
      last = `${answer.status()} ${await answer.text()}`;
      if (answer.status() !== 200) return false;
      reply = (await answer.json()) as T;
      return accepted(reply);
    },
    async () => `${path} was not accepted: ${last}`,
  );
  return reply!;
}

/** One polling round now (admin-only); answers once the round is done. */
const pollRound = () => root.call('post', '/api/task/poll');

/** Marks the document: still there later means the page was not reloaded. */
const markDocument = (page: Page) => page.evaluate('window.__tasksNoReload = true');
const expectNoReload = async (page: Page) =>
  expect(await page.evaluate('window.__tasksNoReload === true')).toBe(true);

const expectVisible = (locator: Locator, what: string) =>
  poll(
    async () => (await locator.count()) > 0 && (await locator.first().isVisible()),
    async () => `${what} did not appear`,
  );

test('a user follows a drawing and a Suno song from queued to done without reloading', async () => {
  const page = await session.openPage();
  const username = unique('tasks');
  await register(page, username, 'tasks-pw-1');
  await signIn(page, username, 'tasks-pw-1');
  const key = await createToken(page);

  const imagine = await submit<{ code: number; result: string }>(
    page,
    key,
    '/mj/submit/imagine',
    { prompt: 'a cat' },
    (body) => body.code === 1,
  );
  const mjId = imagine.result;
  const song = await submit<{ code: string; data: string }>(
    page,
    key,
    '/suno/submit/music',
    { prompt: 'x', mv: 'chirp-v3-0', title: 't', tags: 'pop' },
    (body) => body.code === 'success',
  );
  const sunoTaskId = song.data;
  const upstreamMj = upstream.tasks().find((task) => task.platform === 'midjourney')!;
  const upstreamSuno = upstream.tasks().find((task) => task.platform === 'suno')!;

  // The drawing log: the imagine was just submitted (status '' → 提交中, as new-api records it until
  // the first poll), no image yet.
  await page.getByRole('link', { name: '绘图', exact: true }).click();
  await page.waitForURL('**/midjourney');
  await page.getByRole('heading', { name: '绘图日志' }).waitFor();
  const mjRow = page.locator('[data-testid^="mj-row-"]').filter({ hasText: mjId });
  await expectVisible(mjRow, `the drawing row ${mjId}`);
  await expectText(mjRow.first(), /绘图/);
  await expectText(mjRow.first(), /提交中/);
  expect(await mjRow.first().getByRole('button', { name: '查看图片' }).count()).toBe(0);
  // Users get neither the channel column nor the callback banner.
  expect(await page.getByRole('columnheader', { name: '渠道' }).count()).toBe(0);
  expect(await page.getByTestId('mj-notify-disabled').count()).toBe(0);
  await shoot(page, 'tasks-midjourney-queued');

  // The upstream finishes the drawing; a polling round brings it, the open page follows the push.
  await markDocument(page);
  upstream.advance(upstreamMj.id, 'SUCCESS');
  await pollRound();
  await expectText(mjRow.first(), /成功/);
  await expectText(mjRow.first(), /100%/);
  const thumbnail = mjRow.first().getByRole('button', { name: '查看图片' });
  await expectVisible(thumbnail, 'the result thumbnail');
  await expectNoReload(page);
  await thumbnail.click();
  await page.getByRole('dialog', { name: '图片预览' }).waitFor();
  await shoot(page, 'tasks-midjourney-lightbox');
  await page.keyboard.press('Escape');

  // The task log (client-side navigation: the document stays): the song is queued.
  await page.getByRole('link', { name: '异步任务', exact: true }).click();
  await page.waitForURL('**/task');
  await page.getByRole('heading', { name: '任务日志' }).waitFor();
  const taskRow = page.locator('[data-testid^="task-row-"]').filter({ hasText: sunoTaskId });
  await expectVisible(taskRow, `the task row ${sunoTaskId}`);
  await expectText(taskRow.first(), /生成音乐/);
  await expectText(taskRow.first(), /队列中/);
  expect(await taskRow.first().locator('audio').count()).toBe(0);
  await shoot(page, 'tasks-task-queued');

  upstream.advance(upstreamSuno.id, 'IN_PROGRESS');
  await pollRound();
  await expectText(taskRow.first(), /执行中/);

  upstream.advance(upstreamSuno.id, 'SUCCESS');
  await pollRound();
  await expectText(taskRow.first(), /成功/);
  const audio = taskRow.first().locator('audio');
  await poll(
    async () => (await audio.count()) > 0,
    async () => 'no audio player in the finished row',
  );
  expect(await audio.first().getAttribute('src')).toMatch(/\/audio\/.+\.mp3$/);
  expect(await audio.first().getAttribute('controls')).not.toBeNull();
  await expectNoReload(page);

  // The task id opens the row's JSON.
  await taskRow.first().getByRole('button', { name: sunoTaskId }).click();
  const detail = page.getByRole('dialog', { name: '任务详情' });
  await expectText(detail, new RegExp(`"task_id": "${sunoTaskId}"`));
  await shoot(page, 'tasks-task-detail');
  await page.keyboard.press('Escape');
  await shoot(page, 'tasks-task-done');
});

/** The console's pager (page buttons) sits inside the card that holds the table. */
async function expectPagerInCard(page: Page) {
  const pager = page.getByRole('button', { name: '下一页' });
  const card = page.locator('.mantine-Paper-root').filter({ has: pager });
  const [inner, outer] = [await pager.boundingBox(), await card.boundingBox()];
  expect(inner && outer).toBeTruthy();
  expect(inner!.x + inner!.width).toBeLessThanOrEqual(outer!.x + outer!.width);
  expect(inner!.y + inner!.height).toBeLessThanOrEqual(outer!.y + outer!.height);
}

test('root sees every drawing with its channel and the callback-disabled banner', async () => {
  const page = await session.openPage({ viewport: { width: 1440, height: 900 } });
  await signInAsRoot(page);
  await page.goto('/midjourney');
  await page.getByRole('heading', { name: '绘图日志' }).waitFor();
  await expectText(page.getByTestId('mj-notify-disabled'), /未开启 Midjourney 回调/);
  await page.getByRole('columnheader', { name: '渠道' }).waitFor();
  await expectVisible(page.locator('[data-testid^="mj-row-"]'), 'a drawing row');
  await expectPagerInCard(page);
  await shoot(page, 'tasks-midjourney-admin');
  await page.goto('/task');
  await expectVisible(page.locator('[data-testid^="task-row-"]'), 'a task row');
  await expectPagerInCard(page);
  await shoot(page, 'tasks-task-admin-1440');

  // A phone: the rows are cards, the filters stack.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/task');
  await page.getByRole('heading', { name: '任务日志' }).waitFor();
  await expectVisible(page.locator('[data-testid^="task-row-"]'), 'a task row');
  const overflow = await page.evaluate<number>(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
  expect(overflow).toBeLessThanOrEqual(1);
  await shoot(page, 'tasks-task-phone');
});
