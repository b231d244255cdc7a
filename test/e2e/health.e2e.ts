/**
 * GET /healthz and GET /readyz through the whole app: live and ready once started, 503 with the
 * failing check named when a store stops answering or the process is shutting down.
 */
import request from 'supertest';
import { ShutdownDrain } from '../../apps/gateway/src/health/shutdown-drain';
import { READ_STORE } from '../../apps/gateway/src/infrastructure/injection-tokens';
import { startTestApp, type TestApp } from '../support/test-app';

jest.setTimeout(60_000);

describe('health endpoints', () => {
  let t: TestApp;

  afterEach(async () => {
    await t?.close().catch(() => undefined);
  });

  it('answers live and ready after start-up, uncached, without a session', async () => {
    t = await startTestApp();
    const live = await request(t.url).get('/healthz');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    expect(live.headers['cache-control']).toBe('no-store');
    const ready = await request(t.url).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: {
        storage: { ok: true },
        projections: { ok: true },
        caches: { ok: true },
        shutdown: { ok: true },
      },
    });
  });

  it('turns 503 when the read store stops answering, naming the check', async () => {
    t = await startTestApp();
    await t.app.get<{ close(): Promise<void> }>(READ_STORE).close();
    const ready = await request(t.url).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe('not_ready');
    expect(ready.body.checks.storage.ok).toBe(false);
    expect((await request(t.url).get('/healthz')).status).toBe(200);
  });

  it('turns 503 as soon as a shutdown signal arrives, before anything closes', async () => {
    t = await startTestApp();
    t.app.get(ShutdownDrain).begin('SIGTERM');
    const ready = await request(t.url).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.shutdown).toEqual({ ok: false, detail: 'shutting down' });
  });
});
