/**
 * GET /api/openapi.json and GET /api/docs through the whole app: the document validates as
 * OpenAPI, lists every route the router serves under /api and /v1, and carries the DTOs' rules and
 * the routes' roles; the page renders it without loading anything from elsewhere.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { toOpenApiPath } from '../../apps/gateway/src/openapi/api-route';
import type { OpenApiDocument } from '../../apps/gateway/src/openapi/openapi-document';
import { registeredRoutes } from '../support/declared-routes';
import { startTestApp, type TestApp } from '../support/test-app';

jest.setTimeout(60_000);

const VALIDATOR = require.resolve('@seriousme/openapi-schema-validator/bin/validate-api-cli.js');

describe('API reference', () => {
  let t: TestApp;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    t = await startTestApp();
    const answer = await request(t.url).get('/api/openapi.json');
    expect(answer.status).toBe(200);
    doc = answer.body as OpenApiDocument;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('validates as OpenAPI 3.1 with the standard validator', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const file = join(t.dataDir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    // The validator is an ES module: it runs in its own node, not in jest's CommonJS runtime.
    const { stdout } = await promisify(execFile)(process.execPath, [VALIDATOR, file]).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    expect(JSON.parse(stdout)).toEqual({ valid: true });
  });

  it('documents every route the router serves under /api and /v1', async () => {
    const routes = await registeredRoutes(t, ['/api', '/v1']);
    expect(routes.length).toBeGreaterThan(100);
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const served = routes.map((route) => {
      const [method, url] = route.split(' ') as [string, string];
      return `${method} ${toOpenApiPath(url)}`;
    });
    expect(served.filter((route) => !documented.has(route))).toEqual([]);
    // Nor does it list a route the router does not serve.
    const underWalked = /^\S+ \/(api|v1)(\/|$)/;
    expect([...documented].filter((op) => underWalked.test(op)).sort()).toEqual(served.sort());
  });

  it('carries the body rules of a DTO and the role each route needs', () => {
    const create = doc.paths['/api/token']?.['post'];
    expect(create?.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateTokenBody' } } },
    });
    const body = doc.components.schemas['CreateTokenBody'] as {
      properties: Record<string, { type?: string; maxLength?: number }>;
      required: string[];
    };
    expect(body.properties['name']).toMatchObject({ type: 'string', maxLength: 200 });
    expect(body.required).toEqual(['name']);
    expect(body.properties['count']).toMatchObject({ type: 'integer', minimum: 1 });

    expect(doc.paths['/api/group']?.['get']?.['x-tollgate-role']).toBe('admin');
    expect(doc.paths['/api/status']?.['get']?.['x-tollgate-role']).toBe('public');
    expect(doc.paths['/api/token']?.['post']?.['x-tollgate-role']).toBe('user');
    expect(doc.paths['/v1/chat/completions']?.['post']?.['x-tollgate-role']).toBe('token');
    expect(doc.paths['/v1/chat/completions']?.['post']?.security).toEqual([{ apiKey: [] }]);
  });

  it('reads path and query parameters from the handlers', () => {
    const get = doc.paths['/api/token/{id}']?.['get'];
    expect(get?.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
    ]);
    const list = doc.paths['/api/token']?.['get'];
    expect(list?.parameters.map((p) => p['name'])).toEqual(['p', 'size']);
  });

  it("describes each console answer's data from the handlers' return types", () => {
    const answerOf = (path: string, method: string) =>
      (
        doc.paths[path]?.[method]?.responses['200'] as {
          content: { 'application/json': { schema: { allOf?: Array<Record<string, any>> } } };
        }
      ).content['application/json'].schema;
    const dataOf = (path: string, method: string) => {
      const { allOf } = answerOf(path, method);
      expect(allOf?.[0]).toEqual({ $ref: '#/components/schemas/Envelope' });
      return allOf?.[1]?.['properties']?.data as Record<string, unknown>;
    };
    const schema = (name: string) =>
      doc.components.schemas[name] as {
        properties: Record<string, Record<string, unknown>>;
        required: string[];
      };

    // GET /api/status: contracts' StatusDto, field by field.
    expect(dataOf('/api/status', 'get')).toEqual({ $ref: '#/components/schemas/StatusDto' });
    const status = schema('StatusDto');
    expect(status.properties['version']).toEqual({ type: 'string' });
    expect(status.properties['quota_per_unit']).toEqual({ type: 'number' });
    expect(status.properties['setup']).toMatchObject({ type: 'boolean' });
    expect(status.required).toEqual(expect.arrayContaining(['version', 'system_name', 'setup']));

    // The user routes: UserDto, alone or in a page.
    expect(dataOf('/api/user/{id}', 'get')).toEqual({ $ref: '#/components/schemas/UserDto' });
    expect(dataOf('/api/user/self', 'get')).toEqual({ $ref: '#/components/schemas/UserDto' });
    expect(schema('UserDto').properties['username']).toEqual({ type: 'string' });
    expect(dataOf('/api/user', 'get')).toEqual({ $ref: '#/components/schemas/PageOfUserDto' });
    expect(schema('PageOfUserDto').properties['items']).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/UserDto' },
    });

    // Lists and inline shapes; an answer with fields beside data is documented whole.
    expect(dataOf('/api/token', 'get')).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/TokenDto' },
    });
    expect(answerOf('/api/channel/test/{id}', 'get').allOf?.[1]).toEqual({
      $ref: '#/components/schemas/ChannelTestResult',
    });
    // A handler answering no data keeps the open envelope.
    expect(answerOf('/api/user/logout', 'get')).toEqual({ $ref: '#/components/schemas/Envelope' });

    // Every $ref points at a schema the document carries.
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    const missing = refs
      .map((r) => r.slice('"#/components/schemas/'.length, -1))
      .filter((name) => !(name in doc.components.schemas));
    expect([...new Set(missing)]).toEqual([]);
  });

  it('renders /api/docs as a self-contained HTML page of the same routes', async () => {
    const page = await request(t.url).get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('/api/token/{id}');
    expect(page.text).toContain('/v1/chat/completions');
    expect(page.text).toContain('<code>data</code>: StatusDto');
    // The page's own words follow Accept-Language; it follows the system's dark mode and phones.
    const en = await request(t.url).get('/api/docs').set('Accept-Language', 'en');
    const zh = await request(t.url).get('/api/docs').set('Accept-Language', 'zh-CN');
    expect(en.text).toContain('<th>Parameter</th>');
    expect(zh.text).toContain('<th>参数</th>');
    expect(zh.text).toContain('<html lang="zh-CN">');
    expect(en.text).toContain('prefers-color-scheme:dark');
    expect(en.text).toContain('name="viewport"');
    expect(page.text).not.toMatch(/<(script|link)\b[^>]*(src|href)=["']?https?:/i);
    expect(page.text).not.toMatch(/<script/i);
  });
});
