import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'undici';
import type { RequestRecord } from './request-record';
import { requestRecordOf, RequestTracker } from './request-tracker';

describe('RequestTracker', () => {
  let app: FastifyInstance;
  let url: string;
  const done: RequestRecord[] = [];
  let release: (() => void) | undefined;

  beforeAll(async () => {
    const tracker = new RequestTracker();
    tracker.observe({ requestDone: (record) => done.push({ ...record }) });
    app = Fastify();
    tracker.instrumentRoutes(app);
    app.get('/api/user/:id', (req, reply) => {
      const record = requestRecordOf(req.raw)!;
      record.userId = 7;
      // The relay opens its record again: the one already open is returned.
      expect(tracker.begin(req.raw, reply.raw, '/other')).toBe(record);
      expect(tracker.ownIdOf(req.raw)).toBe(record.ownId);
      void reply.send({ ok: true });
    });
    app.get('/hang', (_req, reply) => {
      reply.hijack();
      release = () => reply.raw.end();
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    app.server.closeAllConnections(); // undici keeps its connections alive
    await app.close();
  });
  beforeEach(() => (done.length = 0));

  const settled = async (count: number) => {
    for (let i = 0; i < 100 && done.length < count; i++) await new Promise((r) => setTimeout(r, 5));
  };

  it('records the route template, status, duration and user, once, and answers X-Request-Id', async () => {
    const res = await request(`${url}/api/user/123`, { headers: { 'x-request-id': 'abc-1' } });
    await res.body.text();
    expect(res.headers['x-request-id']).toBe('abc-1');
    await settled(1);
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({
      method: 'GET',
      route: '/api/user/:id',
      requestId: 'abc-1',
      status: 200,
      userId: 7,
      relay: undefined,
    });
    // The client chose the id: the gateway's own id is a fresh one.
    expect(done[0]!.ownId).toMatch(/^[0-9a-f]{32}$/);
    expect(done[0]!.durationMs).toBeGreaterThan(0);
  });

  it('uses the id it made as its own when the client sent none', async () => {
    const res = await request(`${url}/api/user/5`);
    await res.body.text();
    await settled(1);
    expect(done[0]!.requestId).toBe(res.headers['x-request-id']);
    expect(done[0]!.ownId).toBe(done[0]!.requestId);
  });

  it('reports 499 when the client leaves before any answer', async () => {
    const controller = new AbortController();
    const pending = request(`${url}/hang`, { signal: controller.signal }).catch(() => undefined);
    for (let i = 0; i < 100 && !release; i++) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await pending;
    await settled(1);
    expect(done[0]).toMatchObject({ route: '/hang', status: 499 });
    release?.();
  });
});
