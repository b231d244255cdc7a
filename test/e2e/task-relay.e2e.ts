/**
 * The Midjourney and Suno relays through the whole app, against the mock midjourney-proxy / Suno
 * upstream: submit → poll → success, failure → full refund, a refused prompt charges nothing,
 * follow-ups go to the origin's channel and only for its owner, timeouts refund, a restart resumes
 * polling without charging twice, callbacks as hints only, and the image proxy's address rules.
 * Exact quota figures throughout.
 */
import { request } from 'undici';
import { MockTaskUpstream } from '@tollgate/testing';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { TaskPoller } from '../../apps/gateway/src/tasks/task-poller';
import { readStoredEvents, waitUntil } from '../support/e2e-helpers';
import { addRelayChannel, createRelayToken } from '../support/relay-helpers';
import {
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  tempDataDir,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(120_000);

const CREDIT = 1_000_000;
const TOKEN_CAP = 400_000;
/** mj_imagine 0.1 USD × group ratio 1 × 500 000. */
const IMAGINE = 50_000;
const UPSCALE = 25_000;
const MUSIC = 50_000;

interface Caller {
  name: string;
  web: ConsoleClient;
  key: string;
  tokenId: number;
}

describe('task relays: Midjourney and Suno', () => {
  const dataDir = tempDataDir();
  let t: TestApp;
  let mj: MockTaskUpstream;
  let mj2: MockTaskUpstream;
  let suno: MockTaskUpstream;
  let root: ConsoleClient;
  let mjChannel: number;
  let sunoChannel: number;
  let users = 0;

  async function boot() {
    t = await startTestApp({ dataDir, env: { TASK_POLL_INTERVAL_MS: '0' } });
    root = await loginRoot(t.url);
  }

  beforeAll(async () => {
    [mj, mj2, suno] = await Promise.all([
      MockTaskUpstream.start(),
      MockTaskUpstream.start(),
      MockTaskUpstream.start(),
    ]);
    await boot();
    const routing = t.app.get(RoutingTable);
    await root.put('/api/option/', { key: 'QuotaForNewUser', value: String(CREDIT) });
    mjChannel = await addRelayChannel(root, routing, {
      type: 5,
      name: 'mj',
      key: 'mj-secret',
      base_url: mj.url,
      models: 'mj_imagine,mj_upscale,mj_variation',
      group: 'default',
      priority: 10,
    });
    // A second proxy that only the origin rule could pick for a follow-up (lower priority).
    await addRelayChannel(root, routing, {
      type: 5,
      name: 'mj2',
      key: 'mj2-secret',
      base_url: mj2.url,
      models: 'mj_imagine,mj_upscale',
      group: 'default',
      priority: 0,
    });
    sunoChannel = await addRelayChannel(root, routing, {
      type: 36,
      name: 'suno',
      key: 'suno-key',
      base_url: suno.url,
      models: 'suno_music,suno_lyrics',
      group: 'default',
    });
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([mj?.close(), mj2?.close(), suno?.close()]);
  });

  async function newCaller(): Promise<Caller> {
    users += 1;
    const name = `tasker${users}`;
    const web = await registerAndLogin(t.url, name);
    const { key, tokenId } = await createRelayToken(web, {
      name: 'k',
      remain_quota: TOKEN_CAP,
      unlimited_quota: false,
    });
    return { name, web, key, tokenId };
  }

  async function call(
    key: string,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = { authorization: `Bearer sk-${key}` },
  ) {
    const res = await request(`${t.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, json, text, headers: res.headers };
  }

  async function balances(caller: Caller) {
    const self = (await caller.web.get('/api/user/self')).body.data;
    const token = (await caller.web.get(`/api/token/${caller.tokenId}`)).body.data;
    return {
      quota: self.quota as number,
      used: self.used_quota as number,
      requests: self.request_count as number,
      tokenRemain: token.remain_quota as number,
      tokenUsed: token.used_quota as number,
    };
  }

  const poll = async () => {
    const res = await root.post('/api/task/poll');
    expect(res.body).toMatchObject({ success: true });
  };

  async function logRows(caller: Caller) {
    const res = await caller.web.get('/api/log/self/?p=1&page_size=50');
    return res.body.data.items as Array<{
      type: number;
      content: string;
      quota: number;
      model_name: string;
    }>;
  }

  it('imagine: charged once on submit (user and token), polled to success, image forwarded', async () => {
    const caller = await newCaller();
    mj.nextSubmit({
      code: 22,
      description: '排队中，前面还有1个任务',
      properties: { numberOfQueues: 1 },
    });
    const submitted = await call(caller.key, 'POST', '/mj/submit/imagine', {
      prompt: 'a cat --fast',
    });
    expect(submitted.status).toBe(200);
    // 22 (queued) reads as 1 for the client, as new-api answers.
    expect(submitted.json).toMatchObject({ code: 1, description: '排队中，前面还有1个任务' });
    const id = submitted.json.result as string;
    expect(await balances(caller)).toEqual({
      quota: CREDIT - IMAGINE,
      used: IMAGINE,
      requests: 1,
      tokenRemain: TOKEN_CAP - IMAGINE,
      tokenUsed: IMAGINE,
    });
    const [charge] = (await logRows(caller)).filter((row) => row.type === 2);
    expect(charge).toMatchObject({
      model_name: 'mj_imagine',
      quota: IMAGINE,
      content: `模型固定价格 0.10，分组倍率 1.00，操作 IMAGINE，ID ${id}`,
    });
    // The upstream saw the channel's key; the body kept its mode (MjModeClearEnabled off).
    const sent = mj.requestsTo('/mj/submit/imagine').at(-1)!;
    expect(sent).toMatchObject({ key: 'mj-secret', body: { prompt: 'a cat --fast' } });

    let fetched = await call(caller.key, 'GET', `/mj/task/${id}/fetch`);
    expect(fetched.json).toMatchObject({
      id,
      action: 'IMAGINE',
      prompt: 'a cat --fast',
      progress: '0%',
    });

    mj.advance(id, 'IN_PROGRESS');
    await poll();
    fetched = await call(caller.key, 'GET', `/mj/task/${id}/fetch`);
    expect(fetched.json).toMatchObject({ status: 'IN_PROGRESS', progress: '45%' });

    mj.advance(id, 'SUCCESS');
    await poll();
    fetched = await call(caller.key, 'GET', `/mj/task/${id}/fetch`);
    expect(fetched.json).toMatchObject({
      status: 'SUCCESS',
      progress: '100%',
      imageUrl: `/mj/image/${id}`,
      buttons: [expect.objectContaining({ label: 'U1' })],
    });
    const list = await call(caller.key, 'POST', '/mj/task/list-by-condition', {
      ids: [id, 'nope'],
    });
    expect(list.json.map((task: { id: string }) => task.id)).toEqual([id]);

    const image = await call(caller.key, 'GET', `/mj/image/${id}`, undefined, {});
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    // Success charged nothing more.
    expect((await balances(caller)).quota).toBe(CREDIT - IMAGINE);
  });

  it('a follow-up goes to the origin task channel, only for its owner, only once it succeeded', async () => {
    const owner = await newCaller();
    const other = await newCaller();
    const origin = (await call(owner.key, 'POST', '/mj/submit/imagine', { prompt: 'a dog' })).json
      .result as string;
    const change = { taskId: origin, action: 'UPSCALE', index: 1 };
    // Not finished yet: MjActionCheckSuccessEnabled refuses, nothing charged.
    const early = await call(owner.key, 'POST', '/mj/submit/change', change);
    expect(early.json).toMatchObject({ code: 4, description: 'task_status_not_success' });
    mj.advance(origin, 'SUCCESS');
    await poll();
    // Another user's task id is unknown to them.
    const foreign = await call(other.key, 'POST', '/mj/submit/change', change);
    expect(foreign.json).toMatchObject({ code: 4, description: 'task_not_found' });
    expect((await call(other.key, 'GET', `/mj/task/${origin}/fetch`)).json).toMatchObject({
      code: 4,
      description: 'task_no_found',
    });
    expect((await balances(other)).quota).toBe(CREDIT);

    const before = mj2.requestsTo('/mj/submit/change').length;
    // The mj-api-secret header carries the key too (midjourney-proxy clients).
    const upscaled = await call(owner.key, 'POST', '/mj-fast/mj/submit/change', change, {
      'mj-api-secret': `sk-${owner.key}`,
    });
    expect(upscaled.json).toMatchObject({ code: 1 });
    expect(mj.requestsTo('/mj/submit/change').at(-1)?.body).toMatchObject({ taskId: origin });
    expect(mj2.requestsTo('/mj/submit/change').length).toBe(before);
    // The mode prefix is cut before the upstream sees the path.
    expect(mj.requestsTo('/mj/submit/change').at(-1)?.path).toBe('/mj/submit/change');
    expect((await balances(owner)).quota).toBe(CREDIT - IMAGINE - UPSCALE);
  });

  it('an upstream failure refunds everything it charged, once, with a system log row', async () => {
    const caller = await newCaller();
    const id = (await call(caller.key, 'POST', '/mj/submit/imagine', { prompt: 'a bird' })).json
      .result as string;
    expect((await balances(caller)).quota).toBe(CREDIT - IMAGINE);
    mj.advance(id, 'FAILURE', 'banned');
    await poll();
    await poll();
    expect(await balances(caller)).toEqual({
      quota: CREDIT,
      used: 0,
      requests: 0,
      tokenRemain: TOKEN_CAP,
      tokenUsed: 0,
    });
    const refunds = (await logRows(caller)).filter(
      (row) => row.type === 4 && row.model_name !== '',
    );
    expect(refunds).toEqual([
      expect.objectContaining({ quota: IMAGINE, content: `构图失败 ${id}，补偿 ${IMAGINE} 额度` }),
    ]);
    // The log's spend, filtered or not, counts the charge given back.
    for (const query of ['', '?model_name=mj_imagine', '?start_timestamp=1'])
      expect((await caller.web.get(`/api/log/self/stat${query}`)).body.data.quota).toBe(0);
    const fetched = await call(caller.key, 'GET', `/mj/task/${id}/fetch`);
    expect(fetched.json).toMatchObject({ status: 'FAILURE', failReason: 'banned' });
    const own = (await caller.web.get('/api/mj/self?p=0')).body.data;
    expect(own[0]).toMatchObject({ mj_id: id, refund_quota: IMAGINE, status: 'FAILURE' });
    expect(
      readStoredEvents(t.dataDir, { type: 'TaskRefunded' }).filter(
        (e) => (e.data as any).upstreamTaskId === id,
      ),
    ).toHaveLength(1);
  });

  it('a refused prompt (code 24) is recorded with its reason and charges nothing', async () => {
    const caller = await newCaller();
    mj.nextSubmit({ code: 24, description: '可能包含敏感词', properties: { bannedWord: 'nude' } });
    const refused = await call(caller.key, 'POST', '/mj/submit/imagine', { prompt: 'nude body' });
    expect(refused.json).toMatchObject({ code: 24 });
    expect((await balances(caller)).quota).toBe(CREDIT);
    const own = (await caller.web.get('/api/mj/self?p=0')).body.data;
    expect(own[0]).toMatchObject({
      code: 24,
      fail_reason: '可能包含敏感词',
      quota: 0,
      status: 'FAILURE',
    });
  });

  it('a short balance is refused before the upstream is called', async () => {
    const caller = await newCaller();
    await root.put('/api/user/', { id: caller.web.userId, quota: 10 });
    const before = mj.requestsTo('/mj/submit/imagine').length;
    const res = await call(caller.key, 'POST', '/mj/submit/imagine', { prompt: 'x' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 4, description: 'quota_not_enough' });
    expect(mj.requestsTo('/mj/submit/imagine').length).toBe(before);
  });

  it('a task open past TASK_TIMEOUT_MINUTES fails and is refunded', async () => {
    const caller = await newCaller();
    const id = (await call(caller.key, 'POST', '/mj/submit/imagine', { prompt: 'slow' })).json
      .result as string;
    mj.advance(id, 'FORGET');
    await t.app.get(TaskPoller).pollNow(Date.now() + 61 * 60_000);
    await waitUntil(async () => (await balances(caller)).quota === CREDIT, 'refunded');
    const own = (await caller.web.get('/api/mj/self?p=0')).body.data;
    expect(own[0]).toMatchObject({ status: 'FAILURE', fail_reason: '上游任务超时（超过1小时）' });
  });

  it('Suno: music charged, polled to success with clips, a failure refunded', async () => {
    const caller = await newCaller();
    const song = await call(caller.key, 'POST', '/suno/submit/music', {
      prompt: 'la la',
      title: 't',
      tags: 'pop',
    });
    expect(song.json).toMatchObject({ code: 'success' });
    const id = song.json.data as string;
    expect(suno.requestsTo('/suno/submit/MUSIC').at(-1)).toMatchObject({
      key: 'suno-key',
      body: { mv: 'chirp-v3-0' },
    });
    expect((await balances(caller)).quota).toBe(CREDIT - MUSIC);
    suno.advance(id, 'SUCCESS');
    await poll();
    const fetched = await call(caller.key, 'GET', `/suno/fetch/${id}`);
    expect(fetched.json.data).toMatchObject({
      task_id: id,
      action: 'MUSIC',
      status: 'SUCCESS',
      progress: '100%',
    });
    expect(fetched.json.data.data[0].audio_url).toContain('/audio/');

    const lyrics = (await call(caller.key, 'POST', '/suno/submit/lyrics', { prompt: 'love' })).json
      .data as string;
    expect((await balances(caller)).quota).toBe(CREDIT - MUSIC - 5_000);
    suno.advance(lyrics, 'FAILURE');
    await poll();
    expect((await balances(caller)).quota).toBe(CREDIT - MUSIC);
    const rows = (await logRows(caller)).filter((row) => row.type === 4 && row.model_name !== '');
    expect(rows[0]?.content).toBe(`异步任务执行失败 ${lyrics}，补偿 5000 额度`);
    const both = await call(caller.key, 'POST', '/suno/fetch', { ids: [id, lyrics] });
    expect(both.json.data.map((task: { task_id: string }) => task.task_id).sort()).toEqual(
      [id, lyrics].sort(),
    );
    expect((await call(caller.key, 'GET', '/suno/fetch/unknown')).json).toMatchObject({
      code: 'task_not_exist',
    });
  });

  it('Suno: an upstream error is answered in the task shape and charges nothing', async () => {
    const caller = await newCaller();
    suno.nextSubmit({ suno: { code: 'error', message: 'insufficient credits', data: null } });
    const res = await call(caller.key, 'POST', '/suno/submit/music', { prompt: 'x' });
    expect(res.status).toBe(500);
    expect(res.json).toMatchObject({ code: 'error', message: 'insufficient credits' });
    expect((await balances(caller)).quota).toBe(CREDIT);
    expect((await call(caller.key, 'POST', '/suno/submit/dance', {})).json).toMatchObject({
      code: 'invalid_action',
    });
  });

  /** The one answer /mj/image gives for every failure (its request id aside). */
  const NO_IMAGE = {
    status: 404,
    json: {
      error: { message: 'Image unavailable', type: 'tollgate_error', param: '', code: null },
    },
  };
  const image = async (id: string) => {
    const res = await call('', 'GET', `/mj/image/${id}`, undefined, {});
    const error = res.json?.error;
    if (error) error.message = String(error.message).replace(/ \(request id: \w+\)$/, '');
    return { status: res.status, json: res.json };
  };

  it('the image proxy fetches what the upstream gave, on its channel origin or a public address only', async () => {
    const caller = await newCaller();
    const id = (await call(caller.key, 'POST', '/mj/submit/imagine', { prompt: 'where' })).json
      .result as string;
    mj.advance(id, 'IN_PROGRESS');
    // Each address the upstream gives (a preview while in progress) is recorded by the poll.
    const shown = async (imageUrl: string) => {
      mj.setImageUrl(id, imageUrl);
      await poll();
      return image(id);
    };
    const elsewhere = mj2.requests.length;
    for (const imageUrl of [
      `${mj2.url}/img/other-port.png`, // loopback, another port than the channel's
      `http://localhost:${mj.port}/img/other-host.png`, // the channel's port, another host name
      `http://[::ffff:127.0.0.1]:${mj2.port}/img/mapped.png`,
      `http://10.255.255.1:${mj2.port}/img/private.png`,
      `${mj.url}/redirect?to=${encodeURIComponent(`${mj2.url}/img/redirected.png`)}`,
      `${mj.url}/not-image`,
      `${mj.url}/big.png`, // announced length past the cap
      `file:///etc/passwd`,
      `ftp://${new URL(mj.url).host}/img/ftp.png`,
    ])
      expect(await shown(imageUrl)).toEqual(NO_IMAGE);
    // Nothing reached the other server; on the channel's own server only its own addresses.
    expect(mj2.requests.length).toBe(elsewhere);
    expect(mj.requestsTo('/img/other-host.png')).toEqual([]);
    expect(mj.requestsTo('/redirect')).toHaveLength(1);
    // No such task, or no image yet: the same answer.
    expect(await image('unknown')).toEqual(NO_IMAGE);

    // The channel's own origin is served, with headers that keep it inert on the gateway's origin.
    mj.advance(id, 'SUCCESS');
    mj.setImageUrl(id, `${mj.url}/img/${id}.png`);
    await poll();
    const served = await call('', 'GET', `/mj/image/${id}`, undefined, {});
    expect(served.status).toBe(200);
    expect(served.headers).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    });
  });

  it('/mj/notify is only a hint: it changes nothing, the task follows its upstream', async () => {
    const caller = await newCaller();
    const other = await newCaller();
    const id = (await call(caller.key, 'POST', '/mj/submit/imagine', { prompt: 'claim' })).json
      .result as string;
    const polls = () =>
      mj.requestsTo('/mj/task/list-by-condition').filter((r) => {
        const ids = (r.body as { ids?: string[] }).ids ?? [];
        return ids.length === 1 && ids[0] === id;
      }).length;
    const claims = [
      { id, status: 'FAILURE', progress: '100%', failReason: 'my own refund' },
      { id, status: 'IN_PROGRESS', progress: '99%', imageUrl: `${mj2.url}/img/planted.png` },
      { id, status: 'SUCCESS', progress: '100%', imageUrl: `${mj2.url}/img/planted.png` },
    ];
    for (const claim of claims)
      expect(await call(caller.key, 'POST', '/mj/notify', claim)).toMatchObject({
        status: 200,
        json: { code: 1, description: 'success' },
      });
    // A flood of them is one poll of that task (one per interval), and the upstream still says
    // SUBMITTED: nothing was recorded, nothing refunded.
    for (let i = 0; i < 20; i++) await call(caller.key, 'POST', '/mj/notify', claims[0]);
    expect(polls()).toBe(1);
    expect(await balances(caller)).toMatchObject({
      quota: CREDIT - IMAGINE,
      tokenRemain: TOKEN_CAP - IMAGINE,
    });
    const ofTask = (type: string) =>
      readStoredEvents(t.dataDir, { type }).filter((e) => (e.data as any).upstreamTaskId === id);
    expect(ofTask('TaskRefunded')).toEqual([]);
    const own = (await caller.web.get('/api/mj/self?p=0')).body.data;
    expect(own[0]).toMatchObject({ mj_id: id, progress: '0%', fail_reason: '', image_url: '' });
    expect(own[0].status).not.toBe('FAILURE');
    expect(await image(id)).toEqual(NO_IMAGE);
    expect(mj2.requestsTo('/img/planted.png')).toEqual([]);

    // Another user's, or an unknown, id: the same refusal as before, and no poll.
    for (const [key, body] of [
      [other.key, claims[0]],
      [caller.key, { ...claims[0], id: 'no-such-task' }],
    ] as const)
      expect(await call(key, 'POST', '/mj/notify', body)).toMatchObject({
        status: 400,
        json: { code: 4, description: 'task_no_found' },
      });
    expect(polls()).toBe(1);

    // The upstream's own answer decides: success, charged once.
    mj.advance(id, 'SUCCESS');
    await poll();
    expect((await call(caller.key, 'GET', `/mj/task/${id}/fetch`)).json).toMatchObject({
      status: 'SUCCESS',
      imageUrl: `/mj/image/${id}`,
    });
    expect((await balances(caller)).quota).toBe(CREDIT - IMAGINE);
    expect((await image(id)).status).toBe(200);

    // A hint about a task its upstream failed: that poll refunds it.
    const failed = (await call(caller.key, 'POST', '/mj/submit/imagine', { prompt: 'lost' })).json
      .result as string;
    expect((await balances(caller)).quota).toBe(CREDIT - 2 * IMAGINE);
    mj.advance(failed, 'FAILURE', 'upstream says no');
    expect(
      (await call(caller.key, 'POST', '/mj/notify', { id: failed, status: 'SUCCESS' })).json,
    ).toMatchObject({ code: 1 });
    expect((await balances(caller)).quota).toBe(CREDIT - IMAGINE);
    expect((await call(caller.key, 'GET', `/mj/task/${failed}/fetch`)).json).toMatchObject({
      status: 'FAILURE',
      failReason: 'upstream says no',
    });
  });

  it('a failing poll backs off per channel and shows on the poll status', async () => {
    const caller = await newCaller();
    const id = (await call(caller.key, 'POST', '/mj/submit/imagine', { prompt: 'flaky' })).json
      .result as string;
    mj.failPolls(1);
    await poll();
    const status = (await root.get('/api/task/poll-status')).body.data as Array<{
      channel_id: number;
      failures: number;
      last_error: string;
      next_poll_at: number;
    }>;
    const row = status.find((s) => s.channel_id === mjChannel)!;
    expect(row).toMatchObject({ failures: 1, last_error: 'upstream status 500' });
    expect(row.next_poll_at).toBeGreaterThan(Date.now());
    // Within the backoff the channel is not asked again.
    const polls = mj.requestsTo('/mj/task/list-by-condition').length;
    mj.advance(id, 'SUCCESS');
    await poll();
    expect(mj.requestsTo('/mj/task/list-by-condition').length).toBe(polls);
    // After it, polling resumes and the failure count resets.
    await t.app.get(TaskPoller).pollNow(row.next_poll_at + 1);
    expect((await call(caller.key, 'GET', `/mj/task/${id}/fetch`)).json).toMatchObject({
      status: 'SUCCESS',
    });
  });

  it('Suno: a 5xx answer is retried on another channel; the charge names the one that answered', async () => {
    const caller = await newCaller();
    const spare = await MockTaskUpstream.start();
    try {
      await root.put('/api/option/', { key: 'RetryTimes', value: '1' });
      const id = await addRelayChannel(root, t.app.get(RoutingTable), {
        type: 36,
        name: 'suno-spare',
        key: 'spare-key',
        base_url: spare.url,
        models: 'suno_music',
        group: 'default',
        priority: -1,
      });
      suno.nextSubmit({ httpStatus: 500 });
      const song = await call(caller.key, 'POST', '/suno/submit/music', { prompt: 'retry' });
      expect(song.json).toMatchObject({ code: 'success' });
      expect(spare.requestsTo('/suno/submit/MUSIC')).toHaveLength(1);
      const own = (await caller.web.get('/api/task/self?p=0')).body.data;
      expect(own[0]).toMatchObject({ task_id: song.json.data, quota: MUSIC });
      expect((await balances(caller)).quota).toBe(CREDIT - MUSIC);
      await root.delete(`/api/channel/${id}/`);
    } finally {
      await root.put('/api/option/', { key: 'RetryTimes', value: '0' });
      await spare.close();
    }
  });

  it('a restart with tasks open resumes polling; nothing is charged or refunded twice', async () => {
    const caller = await newCaller();
    const open = (await call(caller.key, 'POST', '/mj/submit/imagine', { prompt: 'restart' })).json
      .result as string;
    const failing = (await call(caller.key, 'POST', '/suno/submit/music', { prompt: 'restart' }))
      .json.data as string;
    await t.close();
    mj.advance(open, 'SUCCESS');
    suno.advance(failing, 'FAILURE');
    await boot();
    caller.web = await new ConsoleClient(t.url).login(caller.name, 'password123');
    await poll();
    await poll();
    const fetched = await call(caller.key, 'GET', `/mj/task/${open}/fetch`);
    expect(fetched.json).toMatchObject({ status: 'SUCCESS' });
    expect((await balances(caller)).quota).toBe(CREDIT - IMAGINE);
    const charges = readStoredEvents(t.dataDir, { type: 'RequestRelayed' }).filter(
      (e) => (e.data as any).userId === caller.web.userId,
    );
    expect(charges).toHaveLength(2);
    const refunds = readStoredEvents(t.dataDir, { type: 'TaskRefunded' }).filter(
      (e) => (e.data as any).userId === caller.web.userId,
    );
    expect(refunds).toHaveLength(1);
    expect(mjChannel).toBeGreaterThan(0);
    expect(sunoChannel).toBeGreaterThan(0);
  });

  it('code 3 (no account) disables the channel automatically; nothing is charged', async () => {
    const caller = await newCaller();
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    mj.nextSubmit({ code: 3, description: '无可用的账号实例' });
    const res = await call(caller.key, 'POST', '/mj/submit/imagine', { prompt: 'x' });
    expect(res.json).toMatchObject({ code: 3 });
    expect((await balances(caller)).quota).toBe(CREDIT);
    await waitUntil(
      async () => (await root.get(`/api/channel/${mjChannel}`)).body.data.status === 3,
      'channel disabled automatically',
    );
  });
});
