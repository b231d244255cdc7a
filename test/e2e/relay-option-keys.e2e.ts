/**
 * new-api's option keys that change what the relay does, each exercised through the whole app and
 * the mock upstream, and each edited live through PUT /api/option/ (no restart): the per-user
 * ModelRequestRateLimit*, SelfUseModeEnabled, AutomaticDisableKeywords, CacheRatio, the
 * sensitive-word check (prompt, stream output on the pass-through and converted paths, whole
 * answers, StreamCacheQueueLength) and the upload/download role thresholds.
 */
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { waitUntil } from '../support/e2e-helpers';
import {
  addRelayChannel,
  createRelayToken,
  type Receipt,
  storedReceipts,
} from '../support/relay-helpers';
import {
  type ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(120_000);

const RATIOS = {
  'gpt-4o-mini': 0.075,
  'gpt-4o': 1.25,
  'tts-1': 7.5,
  'whisper-1': 15,
  'claude-3-5-haiku-20241022': 0.5,
  'kw-model': 1,
  'echo-model': 1,
};
const HAIKU = 'claude-3-5-haiku-20241022';

describe('relay: new-api option keys through the relay', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  let routing: RoutingTable;
  let users = 0;

  const option = async (key: string, value: string) => {
    const res = await root.put('/api/option/', { key, value });
    expect({ key, ...res.body }).toMatchObject({ key, success: true });
  };
  /** Sets options for one test and puts the previous values back after it. */
  async function withOptions(values: Record<string, string>, body: () => Promise<void>) {
    const all = (await root.get('/api/option/')).body.data as Array<{ key: string; value: string }>;
    const before = new Map(all.map((o) => [o.key, o.value]));
    for (const [key, value] of Object.entries(values)) {
      if (before.get(key) !== value) await option(key, value);
    }
    try {
      await body();
    } finally {
      const now = (await root.get('/api/option/')).body.data as Array<{
        key: string;
        value: string;
      }>;
      const current = new Map(now.map((o) => [o.key, o.value]));
      for (const key of Object.keys(values).reverse()) {
        if (current.get(key) !== before.get(key)) await option(key, before.get(key) ?? '');
      }
    }
  }

  async function newCaller() {
    users += 1;
    const web = await registerAndLogin(t.url, `optkeys${users}`);
    const { key } = await createRelayToken(web, { name: 'k', unlimited_quota: true });
    return { userId: web.userId, key };
  }

  /** POSTs a relay call with a raw fetch (the language and the exact bytes under control). */
  async function relay(
    key: string,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; text: string; json: () => Record<string, unknown> }> {
    const res = await fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer sk-${key}`,
        'content-type': 'application/json',
        ...headers,
      },
      body: typeof body === 'string' || body instanceof FormData ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
  }
  const chat = (key: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    relay(key, '/v1/chat/completions', { model: 'gpt-4o-mini', ...body }, headers);
  const hello = [{ role: 'user', content: 'hello' }];

  /** The text of an OpenAI SSE answer, and whether it ended with [DONE]. */
  function streamed(text: string): { content: string; done: boolean } {
    let content = '';
    let done = false;
    for (const line of text.split('\n')) {
      if (!line.startsWith('data: ')) continue;
      const payload = line.slice(6).trim();
      if (payload === '[DONE]') {
        done = true;
        continue;
      }
      const chunk = JSON.parse(payload) as { choices?: Array<{ delta?: { content?: string } }> };
      content += chunk.choices?.[0]?.delta?.content ?? '';
    }
    return { content, done };
  }

  const receipts = (userId: number): Receipt[] => storedReceipts(t.dataDir, userId);
  async function waitReceipts(userId: number, count: number): Promise<Receipt[]> {
    await waitUntil(() => receipts(userId).length >= count, `${count} receipts`, 10_000);
    return receipts(userId);
  }

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp();
    routing = t.app.get(RoutingTable);
    root = await loginRoot(t.url);
    await option('ModelRatio', JSON.stringify(RATIOS));
    await option('ModelPrice', JSON.stringify({ 'dall-e-3': 0.04 }));
    await option('QuotaForNewUser', '100000000');
    await addRelayChannel(root, routing, {
      type: 1,
      name: 'main',
      key: 'sk-upstream-main',
      base_url: upstream.url,
      models: 'gpt-4o-mini,gpt-4o,dall-e-3,tts-1,whisper-1,no-price-model',
      group: 'default',
    });
    await addRelayChannel(root, routing, {
      type: 14,
      name: 'anthropic',
      key: 'sk-ant-upstream',
      base_url: upstream.url,
      models: HAIKU,
      group: 'default',
    });
  });

  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  beforeEach(() => upstream.reset());

  describe('ModelRequestRateLimit*', () => {
    it("all calls (failed ones included) in the window: the next one gets 429 with new-api's text; 0 = no limit; per user", async () => {
      const a = await newCaller();
      const b = await newCaller();
      await withOptions(
        {
          ModelRequestRateLimitEnabled: 'true',
          ModelRequestRateLimitDurationMinutes: '1',
          ModelRequestRateLimitCount: '2',
          ModelRequestRateLimitSuccessCount: '0',
        },
        async () => {
          expect((await chat(a.key, { messages: hello })).status).toBe(200);
          // A refused request (a model without a price) counts as a call too.
          expect((await chat(a.key, { model: 'nope-model', messages: hello })).status).toBe(403);
          const refused = await chat(a.key, { messages: hello }, { 'accept-language': 'zh-CN' });
          expect(refused.status).toBe(429);
          expect((refused.json().error as { message: string }).message).toMatch(
            /^您已达到总请求数限制：1分钟内最多请求2次，包括失败次数，请检查您的请求是否正确/,
          );
          const english = await chat(a.key, { messages: hello });
          expect(english.status).toBe(429);
          expect(english.text).toContain('at most 2 requests (failed ones included) in 1 minutes');
          // The refusals did not reach the upstream; another user has its own count.
          expect(upstream.requestsTo('/chat/completions')).toHaveLength(1);
          expect((await chat(b.key, { messages: hello })).status).toBe(200);
        },
      );
      // Switched off: no limit at all.
      expect((await chat(a.key, { messages: hello })).status).toBe(200);
    });

    it('successful calls in the window: failures do not count; the next one gets 429', async () => {
      const a = await newCaller();
      await withOptions(
        {
          ModelRequestRateLimitEnabled: 'true',
          ModelRequestRateLimitCount: '0',
          ModelRequestRateLimitSuccessCount: '2',
        },
        async () => {
          upstream.next({ status: 400, errorBody: { error: { message: 'bad request upstream' } } });
          expect((await chat(a.key, { messages: hello })).status).toBe(400);
          expect((await chat(a.key, { messages: hello })).status).toBe(200);
          expect((await chat(a.key, { messages: hello, stream: true })).status).toBe(200);
          const refused = await chat(a.key, { messages: hello });
          expect(refused.status).toBe(429);
          expect(refused.json().error).toMatchObject({
            message: expect.stringMatching(
              /^You reached the request limit: at most 2 successful requests in 1 minutes/,
            ),
            code: 'rate_limit_exceeded',
          });
          // Raising the limit applies at once.
          await option('ModelRequestRateLimitSuccessCount', '3');
          expect((await chat(a.key, { messages: hello })).status).toBe(200);
        },
      );
    });
  });

  it('SelfUseModeEnabled: a model without a price is served at ratio 37.5 instead of refused', async () => {
    const a = await newCaller();
    const refused = await chat(a.key, { model: 'no-price-model', messages: hello });
    expect(refused.status).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'model_price_error' });
    expect(upstream.requestsTo('/chat/completions')).toHaveLength(0);
    await withOptions({ SelfUseModeEnabled: 'true' }, async () => {
      upstream.setDefaults({ usage: { prompt_tokens: 100, completion_tokens: 20 } });
      const served = await chat(a.key, { model: 'no-price-model', messages: hello });
      expect(served.status).toBe(200);
      const [receipt] = await waitReceipts(a.userId, 1);
      expect(receipt).toMatchObject({
        model: 'no-price-model',
        modelRatio: 37.5,
        completionRatio: 1,
      });
      expect(receipt!.quota).toBe(Math.round((100 + 20) * 37.5));
    });
  });

  it('AutomaticDisableKeywords: an edited list decides live which upstream messages disable the channel', async () => {
    const a = await newCaller();
    const id = await addRelayChannel(root, routing, {
      type: 1,
      name: 'keyword-target',
      key: 'sk-keyword-upstream',
      base_url: upstream.url,
      models: 'kw-model',
      group: 'default',
      auto_ban: 1,
    });
    const statusOf = async () =>
      ((await root.get(`/api/channel/${id}`)).body.data as { status: number }).status;
    upstream.forKey('sk-keyword-upstream', {
      status: 400,
      errorBody: { error: { message: 'Your Workspace Is Suspended right now', type: 'x' } },
    });
    await withOptions(
      { AutomaticDisableChannelEnabled: 'true', AutomaticDisableKeywords: 'something else' },
      async () => {
        expect((await chat(a.key, { model: 'kw-model', messages: hello })).status).toBe(400);
        expect(await statusOf()).toBe(1);
        await option('AutomaticDisableKeywords', 'something else\nworkspace is suspended');
        expect((await chat(a.key, { model: 'kw-model', messages: hello })).status).toBe(400);
        await waitUntil(async () => (await statusOf()) === 3, 'channel auto-disabled', 10_000);
        const other = JSON.parse(
          ((await root.get(`/api/channel/${id}`)).body.data as { other_info: string }).other_info,
        ) as { status_reason: string };
        expect(other.status_reason).toContain('Your Workspace Is Suspended right now');
      },
    );
  });

  it('a 400 neither cools nor disables through a keyword the client itself sent', async () => {
    const a = await newCaller();
    const channel = (name: string, key: string, priority: number) =>
      addRelayChannel(root, routing, {
        type: 1,
        name,
        key,
        base_url: upstream.url,
        models: 'echo-model',
        group: 'default',
        auto_ban: 1,
        priority,
      });
    const first = await channel('echo-first', 'sk-echo-first', 10);
    const fallback = await channel('echo-fallback', 'sk-echo-fallback', 0);
    const statusOf = async () =>
      ((await root.get(`/api/channel/${first}`)).body.data as { status: number }).status;
    const ask = (text: string) =>
      chat(a.key, { model: 'echo-model', messages: [{ role: 'user', content: text }] });
    // An upstream quoting the request in its error, as OpenAI's "Invalid value: '…'" does.
    const quoting = {
      status: 400,
      errorBody: {
        error: { message: "Invalid value: 'Your credit balance is too low'", type: 'x' },
      },
    };
    await withOptions({ AutomaticDisableChannelEnabled: 'true' }, async () => {
      // (the first-choice channel answers first: the next call's behaviour is its)
      upstream.next(quoting);
      expect((await ask('Your credit balance is too low')).status).toBe(400);
      // Not cooled: the very next request goes to the first-choice channel again…
      expect((await ask('hello')).status).toBe(200);
      const receipts = await waitReceipts(a.userId, 1);
      expect(receipts.map((r) => r.channelId)).toEqual([first]);
      // …and not disabled: the keyword came from the client.
      expect(await statusOf()).toBe(1);
      // The same upstream text to a request that did not carry it is the account's own state.
      upstream.next(quoting);
      expect((await ask('hello again')).status).toBe(400);
      await waitUntil(async () => (await statusOf()) === 3, 'channel auto-disabled', 10_000);
      await waitUntil(
        () => routing.candidates('default', 'echo-model').every((c) => c.id !== first),
        'routing without the disabled channel',
      );
      expect((await ask('and now')).status).toBe(200);
      const after = await waitReceipts(a.userId, 2);
      expect(after.map((r) => r.channelId)).toEqual([first, fallback]);
    });
  });

  it('CacheRatio prices cached prompt tokens, shows in the receipt, and follows an edit live', async () => {
    const a = await newCaller();
    upstream.setDefaults({
      usage: { prompt_tokens: 1000, completion_tokens: 0, cached_tokens: 800 },
    });
    await withOptions({ CacheRatio: JSON.stringify({ 'gpt-4o': 0.5 }) }, async () => {
      expect((await chat(a.key, { model: 'gpt-4o', messages: hello })).status).toBe(200);
      let [receipt] = await waitReceipts(a.userId, 1);
      expect(receipt).toMatchObject({ cachedTokens: 800, cacheRatio: 0.5 });
      expect(receipt!.quota).toBe(Math.round((200 + 800 * 0.5) * 1.25));
      await option('CacheRatio', JSON.stringify({ 'gpt-4o': 0.1 }));
      expect((await chat(a.key, { model: 'gpt-4o', messages: hello })).status).toBe(200);
      receipt = (await waitReceipts(a.userId, 2))[1];
      expect(receipt).toMatchObject({ cachedTokens: 800, cacheRatio: 0.1 });
      expect(receipt!.quota).toBe(Math.round((200 + 800 * 0.1) * 1.25));
    });
    // The receipt is the log's `other` (cache_ratio) as the console reads it.
    await waitUntil(
      async () =>
        JSON.stringify((await root.get('/api/log/?p=1&page_size=50&type=2')).body).includes(
          'cache_ratio',
        ),
      'the log row shows the cache ratio',
      10_000,
    );
  });

  describe('sensitive words', () => {
    const ON = {
      CheckSensitiveEnabled: 'true',
      CheckSensitiveOnPromptEnabled: 'true',
      StopOnSensitiveEnabled: 'true',
      SensitiveWords: 'forbidden_word\n禁词',
    };

    it("a prompt with a word (any case, any message part) is refused with new-api's 400; the switches decide", async () => {
      const a = await newCaller();
      await withOptions(ON, async () => {
        const refused = await chat(a.key, {
          messages: [
            { role: 'system', content: 'be nice' },
            { role: 'user', content: [{ type: 'text', text: 'say FORBIDDEN_Word please' }] },
          ],
        });
        expect(refused.status).toBe(400);
        expect(refused.json().error).toMatchObject({
          message: expect.stringMatching(/^sensitive words detected/),
          code: 'sensitive_words_detected',
        });
        const embeddings = await relay(a.key, '/v1/embeddings', {
          model: 'gpt-4o-mini',
          input: '这是禁词',
        });
        expect(embeddings.status).toBe(400);
        // Anthropic's wire goes through the same check (its prompt, converted to the hub).
        const messages = await relay(
          a.key,
          '/v1/messages',
          { model: HAIKU, max_tokens: 10, messages: [{ role: 'user', content: 'forbidden_word' }] },
          { 'x-api-key': `sk-${a.key}`, 'anthropic-version': '2023-06-01' },
        );
        expect(messages.status).toBe(400);
        expect(upstream.requestsTo('/chat/completions')).toHaveLength(0);
        expect(upstream.requestsTo('/messages')).toHaveLength(0);
        // Clean prompts pass.
        expect((await chat(a.key, { messages: hello })).status).toBe(200);
        // Prompt check off: the same prompt passes.
        await option('CheckSensitiveOnPromptEnabled', 'false');
        expect(
          (await chat(a.key, { messages: [{ role: 'user', content: 'forbidden_word' }] })).status,
        ).toBe(200);
      });
      // Everything off (the default): passes.
      expect(
        (await chat(a.key, { messages: [{ role: 'user', content: 'forbidden_word' }] })).status,
      ).toBe(200);
    });

    it('a stream whose output has a word stops there with [DONE] (pass-through), and is billed', async () => {
      const a = await newCaller();
      upstream.forModel('gpt-4o-mini', {
        content: 'hello there forbidden_word and more text after it',
        chunks: 10,
      });
      await withOptions(ON, async () => {
        const res = await chat(a.key, { messages: hello, stream: true });
        expect(res.status).toBe(200);
        const { content, done } = streamed(res.text);
        expect(done).toBe(true);
        expect(content.toLowerCase()).not.toContain('forbidden_word');
        expect(content).not.toContain('after it');
        expect(content.startsWith('hello')).toBe(true);
        const [receipt] = await waitReceipts(a.userId, 1);
        expect(receipt!.completionTokens).toBeGreaterThan(0);
        // A Responses API stream stops the same way, but ends without [DONE] (not its protocol).
        const responses = await relay(a.key, '/v1/responses', {
          model: 'gpt-4o-mini',
          input: 'hi',
          stream: true,
        });
        expect(responses.status).toBe(200);
        expect(responses.text).toContain('response.output_text.delta');
        expect(responses.text.toLowerCase()).not.toContain('forbidden_word');
        expect(responses.text).not.toContain('after it');
        expect(responses.text).not.toContain('[DONE]');
        await waitReceipts(a.userId, 2);
        // Non-stream: the whole answer is refused with the words (and still billed).
        const whole = await chat(a.key, { messages: hello });
        expect(whole.status).toBe(400);
        expect(whole.json().error).toMatchObject({
          message: expect.stringMatching(/^sensitive words detected on response: forbidden_word/),
          code: 'sensitive_words_detected',
        });
        await waitReceipts(a.userId, 3);
        // StopOnSensitiveEnabled off: the output is not checked.
        await option('StopOnSensitiveEnabled', 'false');
        const free = await chat(a.key, { messages: hello, stream: true });
        expect(streamed(free.text).content).toBe(
          'hello there forbidden_word and more text after it',
        );
      });
    });

    it("StreamCacheQueueLength holds events back: none of the word's pieces reach the client", async () => {
      const a = await newCaller();
      // 10 chunks of 7 characters: the word spans chunks 5 to 7.
      const pieces = ['p1p1p1-', 'p2p2p2-', 'p3p3p3-', 'p4p4p4-', 'xxforbi', 'dden_wo', 'rdyyyyy'];
      upstream.forModel('gpt-4o-mini', {
        content: pieces.join('') + 'z'.repeat(21),
        chunks: 10,
      });
      await withOptions(ON, async () => {
        const direct = streamed((await chat(a.key, { messages: hello, stream: true })).text);
        // No queue: every event before the one completing the word went out.
        expect(direct).toEqual({ content: pieces.slice(0, 6).join(''), done: true });
        await option('StreamCacheQueueLength', '3');
        const held = streamed((await chat(a.key, { messages: hello, stream: true })).text);
        // Three events held back: the word's pieces never reached the client.
        expect(held).toEqual({ content: pieces.slice(0, 3).join(''), done: true });
        // A clean stream arrives whole through the queue.
        upstream.forModel('gpt-4o-mini', { content: 'all clean words here', chunks: 5 });
        const clean = streamed((await chat(a.key, { messages: hello, stream: true })).text);
        expect(clean).toEqual({ content: 'all clean words here', done: true });
      });
    });

    it('converted path (OpenAI client → Anthropic channel): the stream stops, the whole answer is refused', async () => {
      const a = await newCaller();
      upstream.forModel(HAIKU, { content: 'claude says 禁词 and goes on talking', chunks: 8 });
      await withOptions(ON, async () => {
        const res = await chat(a.key, { model: HAIKU, messages: hello, stream: true });
        expect(res.status).toBe(200);
        const { content, done } = streamed(res.text);
        expect(done).toBe(true);
        expect(content).not.toContain('禁词');
        expect(content).not.toContain('talking');
        const whole = await chat(a.key, { model: HAIKU, messages: hello });
        expect(whole.status).toBe(400);
        expect(whole.text).toContain('sensitive words detected on response: 禁词');
        await waitReceipts(a.userId, 2);
      });
    });
  });

  describe('upload / download role thresholds', () => {
    const image = {
      role: 'user',
      content: [
        { type: 'text', text: 'what is this' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      ],
    };

    it('ImageUploadPermission / ImageDownloadPermission: below the role → 403; administrators pass', async () => {
      const a = await newCaller();
      // An administrator (a registered user with quota, promoted by root).
      const admin = await newCaller();
      const promoted = await root.post('/api/user/manage', { id: admin.userId, action: 'promote' });
      expect(promoted.body).toMatchObject({ success: true });
      const rootKey = admin.key;
      await withOptions(
        { ImageUploadPermission: '10', ImageDownloadPermission: '10' },
        async () => {
          const refused = await chat(a.key, { messages: [image] });
          expect(refused.status).toBe(403);
          expect(refused.json().error).toMatchObject({ code: 'insufficient_permission' });
          expect(refused.text).toContain('Your role may not send images through the API');
          expect((await chat(a.key, { messages: hello })).status).toBe(200);
          const gen = await relay(a.key, '/v1/images/generations', {
            model: 'dall-e-3',
            prompt: 'cat',
          });
          expect(gen.status).toBe(403);
          const rootChat = await chat(rootKey, { messages: [image] });
          expect(rootChat.status).toBe(200);
          const rootGen = await relay(rootKey, '/v1/images/generations', {
            model: 'dall-e-3',
            prompt: 'cat',
          });
          expect(rootGen.status).toBe(200);
        },
      );
      expect((await chat(a.key, { messages: [image] })).status).toBe(200);
    });

    it('FileUploadPermission / FileDownloadPermission: audio uploads and speech downloads', async () => {
      const a = await newCaller();
      const form = () => {
        const data = new FormData();
        data.append('model', 'whisper-1');
        data.append('file', new Blob([Buffer.from('RIFF0000WAVEfmt ')]), 'a.wav');
        return data;
      };
      const upload = async () => {
        const res = await fetch(`${t.url}/v1/audio/transcriptions`, {
          method: 'POST',
          headers: { authorization: `Bearer sk-${a.key}` },
          body: form(),
        });
        return { status: res.status, text: await res.text() };
      };
      const speech = () =>
        relay(a.key, '/v1/audio/speech', { model: 'tts-1', input: 'hi', voice: 'alloy' });
      await withOptions({ FileUploadPermission: '10', FileDownloadPermission: '100' }, async () => {
        const up = await upload();
        expect(up.status).toBe(403);
        expect(up.text).toContain('Your role may not send files through the API');
        const down = await speech();
        expect(down.status).toBe(403);
        expect(down.text).toContain(
          'Your role may not generate and download files (speech audio) through the API',
        );
        const file = await chat(a.key, {
          messages: [
            {
              role: 'user',
              content: [{ type: 'file', file: { file_data: 'data:x;base64,AA==' } }],
            },
          ],
        });
        expect(file.status).toBe(403);
      });
      expect((await upload()).status).toBe(200);
      expect((await speech()).status).toBe(200);
    });

    it('a threshold outside the roles is refused with the envelope and changes nothing', async () => {
      const res = await root.put('/api/option/', { key: 'ImageUploadPermission', value: '5' });
      expect(res.body).toMatchObject({ success: false, message: expect.any(String) });
      const all = (await root.get('/api/option/')).body.data as Array<{
        key: string;
        value: string;
      }>;
      expect(all.find((o) => o.key === 'ImageUploadPermission')?.value).toBe('0');
    });
  });
});
