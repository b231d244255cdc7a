import { MOCK_BIG_PNG_BYTES, MockTaskUpstream } from './mock-task-upstream';

describe('MockTaskUpstream', () => {
  let upstream: MockTaskUpstream;

  beforeAll(async () => {
    upstream = await MockTaskUpstream.start();
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const mj = async (path: string, body?: unknown, key = 'mj-key') => {
    const res = await fetch(`${upstream.url}/base${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', 'mj-api-secret': key },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const suno = async (path: string, body?: unknown, key = 'suno-key') => {
    const res = await fetch(`${upstream.url}/base${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  describe('midjourney wire', () => {
    it('submits an imagine task and records the request with its key', async () => {
      const res = await mj('/mj/submit/imagine', { prompt: 'a cat', state: 'st-1' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        code: 1,
        description: '提交成功',
        result: expect.stringMatching(/^\d{16}$/),
        properties: {},
      });
      expect(upstream.requestsTo('/mj/submit/imagine')[0]).toMatchObject({
        method: 'POST',
        path: '/base/mj/submit/imagine',
        key: 'mj-key',
        body: { prompt: 'a cat' },
      });
      expect(upstream.tasks()).toEqual([
        expect.objectContaining({
          id: res.body.result,
          platform: 'midjourney',
          action: 'IMAGINE',
          status: 'SUBMITTED',
          prompt: 'a cat',
        }),
      ]);

      const fetched = await mj(`/mj/task/${res.body.result}/fetch`);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toMatchObject({
        id: res.body.result,
        action: 'IMAGINE',
        prompt: 'a cat',
        promptEn: 'a cat',
        description: '/imagine a cat',
        state: 'st-1',
        status: 'SUBMITTED',
        progress: '0%',
        startTime: null,
        finishTime: null,
        imageUrl: null,
        failReason: null,
        buttons: [],
        properties: { finalPrompt: 'a cat' },
      });
      expect(typeof fetched.body.submitTime).toBe('number');
    });

    it('gives every task a new, increasing numeric id', async () => {
      const a = await mj('/mj/submit/imagine', { prompt: 'a' });
      const b = await mj('/mj/submit/blend', { base64Array: [] });
      expect(Number(b.body.result)).toBeGreaterThan(Number(a.body.result));
    });

    it('stores the action of each submit route and the origin task', async () => {
      const origin = (await mj('/mj/submit/imagine', { prompt: 'x' })).body.result as string;
      await mj('/mj/submit/action', { taskId: origin, customId: 'MJ::JOB::upsample::1::abc' });
      await mj('/mj/submit/action', { taskId: origin, customId: 'MJ::JOB::variation::2::abc' });
      await mj('/mj/submit/action', { taskId: origin, customId: 'MJ::JOB::reroll::0::abc' });
      await mj('/mj/submit/action', { taskId: origin, customId: 'MJ::Outpaint::50::1::abc' });
      await mj('/mj/submit/change', { taskId: origin, action: 'UPSCALE', index: 1 });
      await mj('/mj/submit/simple-change', { content: `${origin} V3` });
      await mj('/mj/submit/describe', { base64: 'data:image/png;base64,AA==' });
      await mj('/mj/submit/shorten', { prompt: 'long prompt' });
      await mj('/mj/submit/modal', { taskId: origin, prompt: 'zoom' });
      await mj('/mj/submit/upload-discord-images', { base64Array: [] });
      await mj('/mj/insight-face/swap', { sourceBase64: 'a', targetBase64: 'b' });
      expect(upstream.tasks().map((t) => [t.action, t.originTaskId])).toEqual([
        ['IMAGINE', undefined],
        ['UPSCALE', origin],
        ['VARIATION', origin],
        ['REROLL', origin],
        ['ACTION', origin],
        ['UPSCALE', origin],
        ['VARIATION', origin],
        ['DESCRIBE', undefined],
        ['SHORTEN', undefined],
        ['MODAL', origin],
        ['UPLOAD', undefined],
        ['SWAP_FACE', undefined],
      ]);
    });

    it('advances tasks on demand and lists known ids only', async () => {
      const a = (await mj('/mj/submit/imagine', { prompt: 'a' })).body.result as string;
      const b = (await mj('/mj/submit/imagine', { prompt: 'b' })).body.result as string;
      const c = (await mj('/mj/submit/imagine', { prompt: 'c' })).body.result as string;
      upstream.advance(a, 'IN_PROGRESS').advance(b, 'SUCCESS').advance(c, 'FAILURE');

      const list = await mj('/mj/task/list-by-condition', { ids: [a, b, c, 'unknown'] });
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(3);
      const [inProgress, success, failure] = list.body;
      expect(inProgress).toMatchObject({ id: a, status: 'IN_PROGRESS', progress: '45%' });
      expect(typeof inProgress.startTime).toBe('number');
      expect(success).toMatchObject({
        id: b,
        status: 'SUCCESS',
        progress: '100%',
        imageUrl: `${upstream.url}/img/${b}.png`,
        buttons: [
          {
            customId: expect.stringMatching(/^MJ::JOB::upsample::1::[0-9a-f-]{36}$/),
            emoji: '',
            label: 'U1',
            type: 2,
            style: 2,
          },
        ],
      });
      expect(typeof success.finishTime).toBe('number');
      expect(failure).toMatchObject({ id: c, status: 'FAILURE', failReason: 'banned' });

      upstream.advance(c, 'FAILURE', 'nsfw');
      expect((await mj(`/mj/task/${c}/fetch`)).body.failReason).toBe('nsfw');

      upstream.advance(a, 'FORGET');
      const after = await mj('/mj/task/list-by-condition', { ids: [a, b] });
      expect(after.body.map((t: { id: string }) => t.id)).toEqual([b]);
      expect(await mj(`/mj/task/${a}/fetch`)).toEqual({
        status: 404,
        body: { code: 4, description: 'task_no_found' },
      });
      expect((await mj('/mj/task/list-by-condition', { ids: ['nope'] })).body).toEqual([]);
      expect(() => upstream.advance('nope', 'SUCCESS')).toThrow(/no task nope/);
    });

    it('reports the image address a test sets, before and after success', async () => {
      const id = (await mj('/mj/submit/imagine', { prompt: 'a' })).body.result as string;
      upstream.setImageUrl(id, 'http://10.0.0.1/x.png');
      expect((await mj(`/mj/task/${id}/fetch`)).body.imageUrl).toBe('http://10.0.0.1/x.png');
      upstream.advance(id, 'SUCCESS');
      expect((await mj(`/mj/task/${id}/fetch`)).body).toMatchObject({
        status: 'SUCCESS',
        imageUrl: 'http://10.0.0.1/x.png',
      });
      expect(() => upstream.setImageUrl('nope', 'x')).toThrow(/no task nope/);
    });

    it('advances every task with advanceAll', async () => {
      await mj('/mj/submit/imagine', { prompt: 'a' });
      await mj('/mj/submit/imagine', { prompt: 'b' });
      upstream.advanceAll('SUCCESS');
      expect(upstream.tasks().map((t) => t.status)).toEqual(['SUCCESS', 'SUCCESS']);
    });

    it('answers the image seed', async () => {
      const id = (await mj('/mj/submit/imagine', { prompt: 'a' })).body.result as string;
      expect((await mj(`/mj/task/${id}/image-seed`)).body).toEqual({
        code: 1,
        description: '成功',
        result: '1234567',
      });
    });

    it('plays scripted submit outcomes in order', async () => {
      upstream
        .nextSubmit({
          code: 22,
          description: '排队中，前面还有1个任务',
          properties: { numberOfQueues: 1 },
        })
        .nextSubmit({
          code: 24,
          description: '可能包含敏感词',
          properties: { promptEn: 'nude body', bannedWord: 'nude' },
        })
        .nextSubmit({ code: 3, description: '无可用的账号实例' })
        .nextSubmit({ httpStatus: 500 });

      const queued = await mj('/mj/submit/imagine', { prompt: 'q' });
      expect(queued.body).toEqual({
        code: 22,
        description: '排队中，前面还有1个任务',
        result: expect.stringMatching(/^\d+$/),
        properties: { numberOfQueues: 1 },
      });
      const banned = await mj('/mj/submit/imagine', { prompt: 'nude body' });
      expect(banned.body).toEqual({
        code: 24,
        description: '可能包含敏感词',
        properties: { promptEn: 'nude body', bannedWord: 'nude' },
      });
      const noAccount = await mj('/mj/submit/imagine', { prompt: 'x' });
      expect(noAccount.body).toEqual({ code: 3, description: '无可用的账号实例', properties: {} });
      const broken = await mj('/mj/submit/imagine', { prompt: 'x' });
      expect(broken.status).toBe(500);
      // Only the queued submission made a task; the queue is used up.
      expect(upstream.tasks().map((t) => t.id)).toEqual([queued.body.result]);
      expect((await mj('/mj/submit/imagine', { prompt: 'ok' })).body.code).toBe(1);
    });

    it('answers an existing id for code 21', async () => {
      const first = (await mj('/mj/submit/imagine', { prompt: 'a' })).body.result as string;
      upstream.nextSubmit({
        code: 21,
        description: '任务已存在',
        properties: { status: 'SUCCESS', imageUrl: 'http://x/img.png' },
      });
      const again = await mj('/mj/submit/imagine', { prompt: 'a' });
      expect(again.body).toMatchObject({ code: 21, result: first });
      expect(upstream.tasks()).toHaveLength(1);
    });

    it('scripts outcomes by prompt content', async () => {
      upstream.forPrompt('banned', { code: 24, description: '可能包含敏感词' });
      expect((await mj('/mj/submit/imagine', { prompt: 'a banned thing' })).body.code).toBe(24);
      expect((await mj('/mj/submit/imagine', { prompt: 'a fine thing' })).body.code).toBe(1);
      expect(upstream.tasks().map((t) => t.prompt)).toEqual(['a fine thing']);
    });

    it('checks mj-api-secret only when acceptKeys is set', async () => {
      expect((await mj('/mj/submit/imagine', { prompt: 'a' }, 'anything')).status).toBe(200);
      upstream.acceptKeys(['good']);
      expect(await mj('/mj/submit/imagine', { prompt: 'a' }, 'bad')).toEqual({
        status: 401,
        body: { code: 401, description: 'unauthorized' },
      });
      const missing = await fetch(`${upstream.url}/mj/task/list-by-condition`, {
        method: 'POST',
        body: '{"ids":[]}',
      });
      expect(missing.status).toBe(401);
      expect((await mj('/mj/submit/imagine', { prompt: 'a' }, 'good')).status).toBe(200);
    });

    it('fails the next n polls', async () => {
      const id = (await mj('/mj/submit/imagine', { prompt: 'a' })).body.result as string;
      upstream.failPolls(2);
      expect((await mj('/mj/task/list-by-condition', { ids: [id] })).status).toBe(500);
      expect((await suno('/suno/fetch', { ids: [] })).status).toBe(500);
      const third = await mj('/mj/task/list-by-condition', { ids: [id] });
      expect(third.status).toBe(200);
      expect(third.body).toHaveLength(1);
    });
  });

  describe('suno wire', () => {
    it('submits music, advances it and fetches its clips', async () => {
      const res = await suno('/suno/submit/MUSIC', {
        prompt: 'la la',
        title: 'Song',
        tags: 'pop',
        mv: 'chirp-v3-5',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        code: 'success',
        message: '',
        data: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      const id = res.body.data as string;
      expect(upstream.tasks()).toEqual([
        expect.objectContaining({ id, platform: 'suno', action: 'MUSIC', key: 'suno-key' }),
      ]);

      const submitted = await suno('/suno/fetch', { ids: [id, 'unknown'] });
      expect(submitted.body).toMatchObject({
        code: 'success',
        data: [{ task_id: id, action: 'MUSIC', status: 'SUBMITTED', progress: '0%', data: [] }],
      });
      const submitTime = submitted.body.data[0].submit_time as number;
      expect(Math.abs(submitTime - Date.now() / 1000)).toBeLessThan(5);

      upstream.advance(id, 'IN_PROGRESS');
      const streaming = (await suno('/suno/fetch', { ids: [id] })).body.data[0];
      expect(streaming).toMatchObject({
        status: 'IN_PROGRESS',
        progress: '50%',
        data: [{ status: 'streaming', audio_url: '', title: 'Song' }],
      });
      const clip = streaming.data[0].id as string;
      expect(clip).toMatch(/^clip-\d+$/);

      upstream.advance(id, 'SUCCESS');
      const done = (await suno(`/suno/fetch/${id}`)).body.data;
      expect(done).toMatchObject({
        task_id: id,
        status: 'SUCCESS',
        progress: '100%',
        data: [
          {
            id: clip,
            status: 'complete',
            audio_url: `${upstream.url}/audio/${clip}.mp3`,
            metadata: { tags: 'pop', prompt: 'la la' },
          },
        ],
      });
      expect(done.finish_time).toBeGreaterThan(0);

      const audio = await fetch(done.data[0].audio_url as string);
      expect(audio.headers.get('content-type')).toBe('audio/mpeg');
      expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(0);
    });

    it('fails a task with a reason and forgets it', async () => {
      const id = (await suno('/suno/submit/LYRICS', { prompt: 'x' })).body.data as string;
      expect(upstream.tasks()[0]).toMatchObject({ action: 'LYRICS' });
      upstream.advance(id, 'FAILURE');
      expect((await suno('/suno/fetch', { ids: [id] })).body.data[0]).toMatchObject({
        status: 'FAILURE',
        fail_reason: 'content policy',
      });
      upstream.advance(id, 'FORGET');
      expect((await suno('/suno/fetch', { ids: [id] })).body.data).toEqual([]);
    });

    it('plays scripted submit outcomes', async () => {
      upstream
        .nextSubmit({ suno: { code: 'error', message: 'insufficient credits', data: null } })
        .nextSubmit({ httpStatus: 429 })
        .nextSubmit({ httpStatus: 500 });
      expect((await suno('/suno/submit/MUSIC', { prompt: 'a' })).body).toEqual({
        code: 'error',
        message: 'insufficient credits',
        data: null,
      });
      const limited = await fetch(`${upstream.url}/suno/submit/MUSIC`, {
        method: 'POST',
        body: '{}',
      });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('1');
      expect((await suno('/suno/submit/MUSIC', { prompt: 'a' })).status).toBe(500);
      expect(upstream.tasks()).toEqual([]);
    });

    it('checks the Bearer key when acceptKeys is set and needs upper-case routes', async () => {
      upstream.acceptKeys(['good']);
      expect(await suno('/suno/submit/MUSIC', { prompt: 'a' }, 'bad')).toMatchObject({
        status: 401,
        body: { code: 'error' },
      });
      expect((await suno('/suno/submit/MUSIC', { prompt: 'a' }, 'good')).status).toBe(200);
      expect((await suno('/suno/submit/music', { prompt: 'a' }, 'good')).status).toBe(404);
    });
  });

  describe('assets', () => {
    it('serves a small png, a non-image and a png over 12 MB', async () => {
      const img = await fetch(`${upstream.url}/img/123.png`);
      expect(img.status).toBe(200);
      expect(img.headers.get('content-type')).toBe('image/png');
      const bytes = Buffer.from(await img.arrayBuffer());
      expect(bytes.subarray(0, 8)).toEqual(
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      );
      expect(bytes.length).toBeLessThan(100);

      const html = await fetch(`${upstream.url}/cdn/not-image`);
      expect(html.status).toBe(200);
      expect(html.headers.get('content-type')).toBe('text/html');
      await html.text();

      const big = await fetch(`${upstream.url}/cdn/big.png`);
      expect(big.headers.get('content-type')).toBe('image/png');
      expect(Number(big.headers.get('content-length'))).toBe(MOCK_BIG_PNG_BYTES);
      const body = Buffer.from(await big.arrayBuffer());
      expect(body.length).toBe(MOCK_BIG_PNG_BYTES);
      expect(body.length).toBeGreaterThan(12 * 1024 * 1024);
      expect(body.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
    });

    it("redirects to the query's address", async () => {
      const to = `${upstream.url}/img/elsewhere.png`;
      const moved = await fetch(`${upstream.url}/redirect?to=${encodeURIComponent(to)}`, {
        redirect: 'manual',
      });
      expect(moved.status).toBe(302);
      expect(moved.headers.get('location')).toBe(to);
    });

    it('survives a client that drops the big download early', async () => {
      const controller = new AbortController();
      const big = await fetch(`${upstream.url}/big.png`, { signal: controller.signal });
      const reader = big.body!.getReader();
      await reader.read();
      controller.abort();
      await reader.read().catch(() => undefined);
      expect((await fetch(`${upstream.url}/img/a.png`)).status).toBe(200);
    });
  });

  it('reset clears tasks, rules, key checks and records', async () => {
    await mj('/mj/submit/imagine', { prompt: 'a' });
    upstream.nextSubmit({ code: 3 }).forPrompt('x', { code: 24 }).acceptKeys(['k']).failPolls(3);
    upstream.reset();
    expect(upstream.tasks()).toEqual([]);
    expect(upstream.requests).toEqual([]);
    expect((await mj('/mj/submit/imagine', { prompt: 'x' }, 'other')).body.code).toBe(1);
    expect((await mj('/mj/task/list-by-condition', { ids: [] })).status).toBe(200);
  });
});
