import Fastify from 'fastify';
import { createRequire } from 'node:module';
import { LAZY_SCHEMA_COMPILERS, schemaCompilersLoadedBy } from './schema-compilers';

const requireAsFastify = createRequire(require.resolve('fastify'));

/** A Fastify instance whose compilers record each package they load. */
function watchedApp() {
  const asked: string[] = [];
  const compilersFactory = schemaCompilersLoadedBy((name) => {
    asked.push(name);
    return requireAsFastify(name);
  });
  return { app: Fastify({ schemaController: { compilersFactory } }), asked };
}

describe('LAZY_SCHEMA_COMPILERS: Fastify schema compilers loaded on first need', () => {
  it('loads nothing for routes without schemas, as every route of the gateway is', async () => {
    const { app, asked } = watchedApp();
    app.post('/echo', async (request) => request.body);
    // @fastify/static's routes carry a schema with only `hide`: it needs no compiler either.
    const hideOnly: Record<string, unknown> = { hide: true };
    app.get('/static', { schema: hideOnly }, async () => 'file');
    await app.ready();
    const echoed = await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });
    const missing = await app.inject({ method: 'GET', url: '/none' });
    expect([echoed.json(), missing.statusCode, asked]).toEqual([{ a: 1 }, 404, []]);
    await app.close();
  });

  it('loads each compiler once when routes do declare schemas, and they work as Fastify’s', async () => {
    const { app, asked } = watchedApp();
    const body = { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } };
    const response = { 200: { type: 'object', properties: { n: { type: 'integer' } } } };
    for (const url of ['/one', '/two'])
      app.post(url, { schema: { body, response } }, async (request) => ({
        ...(request.body as object),
        secret: 'not in the response schema',
      }));
    await app.ready();
    const valid = await app.inject({ method: 'POST', url: '/two', payload: { n: 7 } });
    const invalid = await app.inject({ method: 'POST', url: '/one', payload: { n: 'x' } });
    expect(valid.json()).toEqual({ n: 7 });
    expect(invalid.statusCode).toBe(400);
    expect(asked.sort()).toEqual([
      '@fastify/ajv-compiler',
      '@fastify/fast-json-stringify-compiler',
    ]);
    await app.close();
  });

  it('is what the gateway gives Fastify: the real packages, loaded from Fastify’s place', async () => {
    const app = Fastify({ schemaController: { compilersFactory: LAZY_SCHEMA_COMPILERS } });
    app.get(
      '/q',
      { schema: { querystring: { type: 'object', required: ['id'] } } },
      async () => 'ok',
    );
    await app.ready();
    const [without, withId] = await Promise.all([
      app.inject({ method: 'GET', url: '/q' }),
      app.inject({ method: 'GET', url: '/q?id=1' }),
    ]);
    expect([without.statusCode, withId.statusCode]).toEqual([400, 200]);
    await app.close();
  });
});
