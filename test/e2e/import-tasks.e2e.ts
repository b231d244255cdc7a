/**
 * new-api's Midjourney and Suno tasks and its top-up orders through the built CLI (`npm run
 * build:server`): the drawing and task logs show the imported rows (admin and self); the open ones
 * are polled again at their imported channels and finish (a failure refunded); a pending order is
 * paid once through the Epay notify, a paid one never; skipped rows are reported; a second run
 * imports nothing; an imported task's history begins with the import line; the ledger agrees.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { MockTaskUpstream } from '@tollgate/testing';
import { describeStream } from '../../apps/gateway/src/history/describe-event';
import { readStoredEvents } from '../support/e2e-helpers';
import { gatewayApi, gatewayLogin } from '../support/gateway-http';
import { bcryptOf, newApiDatabase, oneApiDatabase } from '../support/import-fixtures';
import { startGateway } from '../support/start-gateway';
import { CLI, runCli, runImportCli } from '../support/gateway-cli';

jest.setTimeout(180_000);

const EPAY_ID = '1001';
const EPAY_KEY = 'epay-key-imported-e2e';
const PENDING_TRADE = 'USR2NOpend011700000000';
const PAID_TRADE = 'USR2NOpaid021700000000';
/** 10 units × new-api's default QuotaPerUnit. */
const PENDING_QUOTA = 10 * 500_000;
const MJ_QUOTA = 50_000;
const SUNO_QUOTA = 40_000;
const BUTTONS = [{ customId: 'MJ::JOB::upsample::1::abc', label: 'U1', type: 2, style: 2 }];
const CLIPS = [{ id: 'clip-a', audio_url: 'https://cdn.example/a.mp3', title: 'Song A' }];

/** Epay's MD5 rule, written independently of the gateway's. */
function epayNotify(tradeNo: string, money: string): Record<string, string> {
  const params: Record<string, string> = {
    pid: EPAY_ID,
    trade_no: `EP${tradeNo}`,
    out_trade_no: tradeNo,
    type: 'alipay',
    name: 'TUC10',
    money,
    trade_status: 'TRADE_SUCCESS',
  };
  const text = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  const sign = createHash('md5').update(`${text}${EPAY_KEY}`).digest('hex');
  return { ...params, sign, sign_type: 'MD5' };
}

async function fixture(dir: string, mjUrl: string, sunoUrl: string): Promise<string> {
  const nowMs = Date.now();
  const nowS = Math.floor(nowMs / 1000);
  const mj = (id: number, over: Record<string, string | number>) => ({
    id,
    code: 1,
    user_id: 2,
    action: 'IMAGINE',
    mj_id: `mj-${id}`,
    prompt: `prompt ${id}`,
    prompt_en: '',
    description: '提交成功',
    state: '',
    submit_time: nowMs - 600_000 + id,
    start_time: 0,
    finish_time: 0,
    image_url: '',
    status: 'SUBMITTED',
    progress: '0%',
    fail_reason: '',
    channel_id: 1,
    quota: MJ_QUOTA,
    buttons: '',
    properties: '',
    ...over,
  });
  const task = (id: number, over: Record<string, string | number>) => ({
    id,
    created_at: nowS - 600,
    updated_at: nowS - 300,
    task_id: `suno-${id}`,
    platform: 'suno',
    user_id: 2,
    channel_id: 2,
    quota: SUNO_QUOTA,
    action: 'MUSIC',
    status: 'SUBMITTED',
    fail_reason: '',
    submit_time: nowS - 600,
    start_time: 0,
    finish_time: 0,
    progress: '0%',
    properties: '{"input":"a song"}',
    data: '',
    ...over,
  });
  return newApiDatabase(dir, {
    users: [
      {
        id: 1,
        username: 'root',
        password: await bcryptOf('rootpass1'),
        role: 100,
        quota: 500_000_000,
        aff_code: 'r00t',
      },
      {
        id: 2,
        username: 'alice',
        password: await bcryptOf('alicepass'),
        role: 1,
        quota: 3_000_000,
        used_quota: 1_000_000,
        request_count: 20,
        aff_code: 'al1c',
      },
    ],
    channels: [
      {
        id: 1,
        type: 2,
        key: 'mj-secret',
        name: 'mj',
        base_url: mjUrl,
        models: 'mj_imagine,mj_upscale',
        group: 'default',
        status: 1,
      },
      {
        id: 2,
        type: 36,
        key: 'suno-key',
        name: 'suno',
        base_url: sunoUrl,
        models: 'suno_music,suno_lyrics',
        group: 'default',
        status: 1,
      },
    ],
    options: [
      { key: 'ServerAddress', value: 'https://gw.example.com' },
      { key: 'PayAddress', value: 'https://pay.example.com/' },
      { key: 'EpayId', value: EPAY_ID },
      { key: 'EpayKey', value: EPAY_KEY },
      // The upstream's image addresses as stored (not the /mj/image/<id> forward).
      { key: 'MjForwardUrlEnabled', value: 'false' },
    ],
    midjourneys: [
      mj(1, {
        status: 'SUCCESS',
        progress: '100%',
        image_url: 'https://cdn.example/1.png',
        buttons: JSON.stringify(BUTTONS),
        properties: '{"finalPrompt":"a cat"}',
        start_time: nowMs - 590_000,
        finish_time: nowMs - 500_000,
      }),
      mj(2, { status: 'IN_PROGRESS', progress: '45%', start_time: nowMs - 590_000 }),
      mj(3, {
        status: 'FAILURE',
        progress: '100%',
        fail_reason: 'banned prompt',
        properties: '{"bannedWord": ',
      }),
      mj(4, { mj_id: '' }),
      mj(5, { user_id: 99 }),
    ],
    tasks: [
      task(1, {
        status: 'SUCCESS',
        progress: '100%',
        data: JSON.stringify(CLIPS),
        start_time: nowS - 590,
        finish_time: nowS - 500,
      }),
      task(2, { status: 'FAILURE', progress: '100%', fail_reason: 'content policy' }),
      task(3, { status: 'IN_PROGRESS', progress: '50%', start_time: nowS - 590 }),
      task(4, { action: '', status: 'SUCCESS', progress: '100%' }),
    ],
    top_ups: [
      {
        id: 1,
        user_id: 2,
        amount: 10,
        money: 7.3,
        trade_no: PENDING_TRADE,
        create_time: nowS - 3600,
        status: 'pending',
      },
      {
        id: 2,
        user_id: 2,
        amount: 20,
        money: 14.6,
        trade_no: PAID_TRADE,
        create_time: nowS - 7200,
        status: 'success',
      },
      {
        id: 3,
        user_id: 99,
        amount: 5,
        money: 3.65,
        trade_no: 'USR99NOx1700000000',
        create_time: nowS,
        status: 'pending',
      },
    ],
  });
}

interface MjRow {
  id: number;
  mj_id: string;
  user_id: number;
  channel_id?: number;
  action: string;
  status: string;
  progress: string;
  fail_reason: string;
  image_url: string;
  buttons: string;
  properties: string;
  quota: number;
  refund_quota: number;
  submit_time: number;
  finish_time: number;
  prompt: string;
}
interface TaskRow {
  id: number;
  task_id: string;
  user_id: number;
  channel_id?: number;
  action: string;
  status: string;
  progress: string;
  fail_reason: string;
  quota: number;
  refund_quota: number;
  submit_time: number;
  data: unknown;
}

/** What the console answers about tasks, orders and alice's balance (compared across a rebuild). */
async function readAnswers(url: string) {
  const root = await gatewayLogin(url, 'root', 'rootpass1');
  const alice = await gatewayLogin(url, 'alice', 'alicepass');
  const get = async (path: string, who: typeof root) =>
    (await gatewayApi(url, path, { method: 'GET', ...who })).data as unknown;
  const self = (await get('/api/user/self', alice)) as Record<string, unknown>;
  return {
    mj: await get('/api/mj/?p=0', root),
    mjSelf: await get('/api/mj/self?p=0', alice),
    tasks: await get('/api/task/?p=0', root),
    tasksSelf: await get('/api/task/self?p=0', alice),
    topups: await get('/api/user/topup?p=1&page_size=10', root),
    alice: [self['quota'], self['used_quota'], self['request_count']],
  };
}

describe('import of new-api tasks and top-up orders (built CLI)', () => {
  const work = mkdtempSync(join(tmpdir(), 'tollgate-import-tasks-'));

  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build:server` first');
  });

  it('imports them, polls the open ones to the end, pays a pending order once', async () => {
    const [mjUp, sunoUp] = await Promise.all([MockTaskUpstream.start(), MockTaskUpstream.start()]);
    const file = await fixture(mkdtempSync(join(work, 'src-')), mjUp.url, sunoUp.url);
    const dataDir = mkdtempSync(join(work, 'data-'));
    try {
      const dry = runImportCli(dataDir, [file, '--dry-run']);
      expect(dry).toMatchObject({ code: 0 });
      expect(dry.out).toMatch(/midjourneys: read 5, imported 3, already imported 0, skipped 2/);
      expect(dry.out).toMatch(/tasks: read 4, imported 4, already imported 0, skipped 0/);
      expect(dry.out).toMatch(/top_ups: read 3, imported 2, already imported 0, skipped 1/);
      expect(readStoredEventsSafe(dataDir)).toHaveLength(0);

      // Killed (SIGKILL) right after the first task's append, then run again: exact counts.
      const killed = runImportCli(dataDir, [file], { TOLLGATE_CRASH_AT: 'import:after-task' });
      expect(killed.code).not.toBe(0);
      expect(readStoredEvents(dataDir, { type: 'TaskImported' })).toHaveLength(1);
      expect(readStoredEvents(dataDir, { type: 'TopUpOrderImported' })).toHaveLength(0);

      const first = runImportCli(dataDir, [file]);
      expect(first).toMatchObject({ code: 0 });
      expect(first.out).toMatch(/channels: read 2, imported 0, already imported 2, skipped 0/);
      expect(first.out).toMatch(/options: read 5, imported 0, already imported 5, skipped 0/);
      expect(first.out).toMatch(/midjourneys: read 5, imported 2, already imported 1, skipped 2/);
      expect(first.out).toMatch(/tasks: read 4, imported 4, already imported 0, skipped 0/);
      expect(first.out).toMatch(/top_ups: read 3, imported 2, already imported 0, skipped 1/);
      // The report: why rows were skipped, changed or dropped; never the payment key.
      expect(first.out).toMatch(/midjourneys #4 skipped: empty mj_id/);
      expect(first.out).toMatch(/midjourneys #5 skipped: its user 99 is not imported/);
      expect(first.out).toMatch(/midjourneys #3 dropped properties: not valid JSON/);
      expect(first.out).toMatch(/tasks #4 changed action: empty/);
      expect(first.out).toMatch(/top_ups #3 skipped: its user 99 is not imported/);
      expect(first.out).not.toContain(EPAY_KEY);

      const imported = readStoredEvents(dataDir, { type: 'TaskImported' });
      expect(imported).toHaveLength(7);
      for (const event of imported) {
        expect(event.metadata).toMatchObject({
          actor: { kind: 'system' },
          import: { project: 'new-api' },
        });
        expect(event.data['source']).toMatchObject({ project: 'new-api' });
      }
      const orders = readStoredEvents(dataDir, { type: 'TopUpOrderImported' });
      expect(orders.map((e) => [e.data['tradeNo'], e.data['status'], e.data['quota']])).toEqual([
        [PENDING_TRADE, 'pending', PENDING_QUOTA],
        [PAID_TRADE, 'success', 20 * 500_000],
      ]);
      // A paid order's credit is inside the imported balance: nothing credited at import.
      expect(readStoredEvents(dataDir, { type: 'QuotaGranted' })).toHaveLength(0);

      // The upstreams know the open tasks: the MJ one will succeed, the Suno one fail.
      mjUp.seed('midjourney', 'mj-2').advance('mj-2', 'SUCCESS');
      sunoUp.seed('suno', 'suno-3').advance('suno-3', 'FAILURE', 'content policy');

      let answers: unknown;
      const gateway = await startGateway({ dataDir, env: { TASK_POLL_INTERVAL_MS: '0' } });
      try {
        const url = gateway.url;
        const root = await gatewayLogin(url, 'root', 'rootpass1');
        const alice = await gatewayLogin(url, 'alice', 'alicepass');
        const get = async (path: string, who: typeof root) =>
          (await gatewayApi(url, path, { method: 'GET', ...who })).data;
        const quotaOf = async () =>
          (await get('/api/user/self', alice)) as { quota: number; used_quota: number };

        // The drawing log, admin and self, newest first, as the source had it.
        const adminMj = (await get('/api/mj/?p=0', root)) as MjRow[];
        expect(adminMj.map((r) => r.mj_id)).toEqual(['mj-3', 'mj-2', 'mj-1']);
        const done = adminMj.find((r) => r.mj_id === 'mj-1')!;
        expect(done).toMatchObject({
          user_id: 2,
          channel_id: 1,
          action: 'IMAGINE',
          status: 'SUCCESS',
          progress: '100%',
          image_url: 'https://cdn.example/1.png',
          quota: MJ_QUOTA,
          prompt: 'prompt 1',
        });
        expect(JSON.parse(done.buttons)).toEqual(BUTTONS);
        expect(JSON.parse(done.properties)).toEqual({ finalPrompt: 'a cat' });
        expect(done.submit_time).toBeGreaterThan(1_000_000_000_000); // milliseconds
        expect(adminMj.find((r) => r.mj_id === 'mj-2')).toMatchObject({
          status: 'IN_PROGRESS',
          progress: '45%',
        });
        expect(adminMj.find((r) => r.mj_id === 'mj-3')).toMatchObject({
          status: 'FAILURE',
          fail_reason: 'banned prompt',
          properties: '',
          refund_quota: 0,
        });
        const selfMj = (await get('/api/mj/self?p=0', alice)) as MjRow[];
        expect(selfMj.map((r) => r.mj_id)).toEqual(['mj-3', 'mj-2', 'mj-1']);
        expect(selfMj[0]).not.toHaveProperty('channel_id');

        // The task log: Suno's clips, seconds, the empty action kept.
        const adminTasks = (await get('/api/task/?p=0', root)) as TaskRow[];
        expect(adminTasks.map((r) => r.task_id)).toEqual(['suno-4', 'suno-3', 'suno-2', 'suno-1']);
        const song = adminTasks.find((r) => r.task_id === 'suno-1')!;
        expect(song).toMatchObject({
          channel_id: 2,
          action: 'MUSIC',
          status: 'SUCCESS',
          progress: '100%',
          quota: SUNO_QUOTA,
          data: CLIPS,
        });
        expect(song.submit_time).toBeLessThan(10_000_000_000); // seconds
        expect(adminTasks.find((r) => r.task_id === 'suno-2')).toMatchObject({
          status: 'FAILURE',
          fail_reason: 'content policy',
        });
        expect(adminTasks.find((r) => r.task_id === 'suno-4')).toMatchObject({ action: '' });
        const selfTasks = (await get('/api/task/self?p=0', alice)) as TaskRow[];
        expect(selfTasks).toHaveLength(4);
        expect(selfTasks[0]).not.toHaveProperty('channel_id');
        expect((await get('/api/task/self?p=0', root)) as TaskRow[]).toHaveLength(0);

        // The open tasks are polled again at their channels and reach their final state.
        const before = await quotaOf();
        const status = (await get('/api/task/poll-status', root)) as Array<{
          channel_id: number;
          open_tasks: number;
        }>;
        expect(status.map((s) => [s.channel_id, s.open_tasks])).toEqual([
          [1, 1],
          [2, 1],
        ]);
        await gatewayApi(url, '/api/task/poll', { method: 'POST', body: {}, ...root });
        expect(mjUp.requestsTo('/mj/task/list-by-condition').at(-1)).toMatchObject({
          key: 'mj-secret',
          body: { ids: ['mj-2'] },
        });
        expect(sunoUp.requestsTo('/suno/fetch').at(-1)).toMatchObject({
          key: 'suno-key',
          body: { ids: ['suno-3'] },
        });
        let mj2: MjRow | undefined;
        let suno3: TaskRow | undefined;
        for (let i = 0; i < 50; i++) {
          mj2 = ((await get('/api/mj/self?p=0', alice)) as MjRow[]).find((r) => r.mj_id === 'mj-2');
          suno3 = ((await get('/api/task/self?p=0', alice)) as TaskRow[]).find(
            (r) => r.task_id === 'suno-3',
          );
          if (mj2?.status === 'SUCCESS' && suno3?.refund_quota) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(mj2).toMatchObject({ status: 'SUCCESS', progress: '100%', refund_quota: 0 });
        expect(mj2!.image_url).toContain('/img/mj-2');
        expect(suno3).toMatchObject({
          status: 'FAILURE',
          fail_reason: 'content policy',
          refund_quota: SUNO_QUOTA,
        });
        // The failed task is refunded as a live one: the source charged it.
        const refunded = await quotaOf();
        expect(refunded.quota).toBe(before.quota + SUNO_QUOTA);
        expect(refunded.used_quota).toBe(before.used_quota - SUNO_QUOTA);
        const after = (await get('/api/task/poll-status', root)) as Array<{ open_tasks: number }>;
        expect(after.every((s) => s.open_tasks === 0)).toBe(true);

        // The pending order is paid once through the Epay notify; a replay credits nothing.
        const notify = async (params: Record<string, string>) => {
          const res = await request(
            `${url}/api/user/epay/notify?${new URLSearchParams(params).toString()}`,
          );
          return res.body.text();
        };
        expect(await notify(epayNotify(PENDING_TRADE, '7.30'))).toBe('success');
        expect((await quotaOf()).quota).toBe(refunded.quota + PENDING_QUOTA);
        expect(await notify(epayNotify(PENDING_TRADE, '7.30'))).toBe('success');
        // The order paid in new-api: its notify is a replay, nothing credited.
        expect(await notify(epayNotify(PAID_TRADE, '14.60'))).toBe('success');
        expect((await quotaOf()).quota).toBe(refunded.quota + PENDING_QUOTA);
        const grants = readStoredEvents(dataDir, { type: 'QuotaGranted' });
        expect(grants.map((g) => g.data['reference'])).toEqual([`topup-${PENDING_TRADE}`]);

        const topups = (await get('/api/user/topup?p=1&page_size=10', root)) as {
          items: Array<{ trade_no: string; status: string; credited: boolean; quota: number }>;
        };
        const byTrade = new Map(topups.items.map((o) => [o.trade_no, o]));
        expect(byTrade.get(PENDING_TRADE)).toMatchObject({
          status: 'success',
          credited: true,
          quota: PENDING_QUOTA,
        });
        expect(byTrade.get(PAID_TRADE)).toMatchObject({ status: 'success', quota: 20 * 500_000 });
        expect(byTrade.size).toBe(2);
        answers = await readAnswers(url);
      } finally {
        await gateway.stop();
      }

      // An imported task's history begins with the import; then what the poller recorded.
      const history = describeStream(
        readStoredEvents(dataDir, { streamId: 'task-newapi-task-3' }).map((e) => ({
          type: e.type,
          data: e.data,
        })),
      );
      expect(history.map((h) => h.reason)).toEqual([
        expect.stringMatching(/^imported from new-api at \d{4}-/),
        'content policy',
        '',
      ]);
      const order = describeStream(
        readStoredEvents(dataDir, { streamId: `topup-${PENDING_TRADE}` }).map((e) => ({
          type: e.type,
          data: e.data,
        })),
      );
      expect(order[0]?.reason).toMatch(/^imported from new-api at /);
      expect(order).toHaveLength(2);

      // A second run imports nothing twice (the polled and paid streams included).
      const second = runImportCli(dataDir, [file]);
      expect(second).toMatchObject({ code: 0 });
      expect(second.out).toMatch(/midjourneys: read 5, imported 0, already imported 3, skipped 2/);
      expect(second.out).toMatch(/tasks: read 4, imported 0, already imported 4, skipped 0/);
      expect(second.out).toMatch(/top_ups: read 3, imported 0, already imported 2, skipped 1/);
      expect(readStoredEvents(dataDir, { type: 'TaskImported' })).toHaveLength(7);
      expect(readStoredEvents(dataDir, { type: 'TopUpOrderImported' })).toHaveLength(2);

      const verify = runCli(dataDir, ['ledger:verify'], { LOG_LEVEL: 'error' });
      expect(verify.out).toContain('Ledger OK');
      expect(verify.code).toBe(0);

      // A full projection rebuild gives the same answers.
      const rebuilt = runCli(dataDir, ['projections:rebuild'], { LOG_LEVEL: 'error' });
      expect(rebuilt.code).toBe(0);
      const again = await startGateway({ dataDir, env: { TASK_POLL_INTERVAL_MS: '0' } });
      try {
        expect(answers).toBeDefined();
        expect(await readAnswers(again.url)).toEqual(answers);
      } finally {
        await again.stop();
      }
    } finally {
      await Promise.all([mjUp.close(), sunoUp.close()]);
    }
  });

  it('a one-api source has none of these tables and reports none of their rows', () => {
    const file = oneApiDatabase(mkdtempSync(join(work, 'src-')), {
      users: [{ id: 1, username: 'root', password: 'x', role: 100 }],
    });
    const dry = runImportCli(mkdtempSync(join(work, 'data-')), [file, '--dry-run']);
    expect(dry).toMatchObject({ code: 0 });
    expect(dry.out).toMatch(/midjourneys: read 0, imported 0, already imported 0, skipped 0/);
    expect(dry.out).not.toMatch(/(midjourneys|tasks|top_ups) #/);
  });
});

/** The DATA_DIR of a dry run holds no event store at all. */
function readStoredEventsSafe(dataDir: string) {
  return existsSync(join(dataDir, 'events.sqlite')) ? readStoredEvents(dataDir) : [];
}
