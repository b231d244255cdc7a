/**
 * The built console over real HTTP: hashed files under /assets compressed (br or gzip, by
 * Accept-Encoding, from the copies the build step wrote) and cached for a year; index.html and the
 * SPA fallback revalidated; the API and the relay neither compressed nor cached by it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestApp, tempDataDir, type TestApp } from '../support/test-app';

jest.setTimeout(60_000);

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent, not decompressed. */
  readonly body: Buffer;
}

/** A GET whose body is left as it came over the wire (fetch and supertest decompress it). */
function rawGet(url: string, acceptEncoding?: string): Promise<Answer> {
  const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** A console build in miniature, precompressed by the same step `npm run build:console` runs. */
function buildConsole(dir: string): { js: Buffer; html: Buffer } {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  const html = Buffer.from(
    `<!doctype html><html><head><script type="module" src="/assets/index-a1b2c3.js"></script>` +
      `</head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`,
  );
  const js = Buffer.from(
    Array.from({ length: 2000 }, (_, i) => `export const value${i} = ${i * 7};\n`).join(''),
  );
  writeFileSync(join(dir, 'index.html'), html);
  writeFileSync(join(dir, 'assets', 'index-a1b2c3.js'), js);
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  execFileSync(process.execPath, [join(__dirname, '../../frontend/scripts/precompress.mjs'), dir]);
  return { js, html };
}

describe('console assets', () => {
  let t: TestApp;
  let built: { js: Buffer; html: Buffer };

  beforeAll(async () => {
    const dataDir = tempDataDir();
    const consoleDir = join(dataDir, 'console');
    built = buildConsole(consoleDir);
    t = await startTestApp({ dataDir, env: { CONSOLE_DIR: consoleDir } });
  });

  afterAll(async () => {
    await t?.close().catch(() => undefined);
  });

  it('sends a hashed file as brotli when accepted, cached for a year', async () => {
    const res = await rawGet(`${t.url}/assets/index-a1b2c3.js`, 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.body.length).toBeLessThan(built.js.length / 2);
    expect(brotliDecompressSync(res.body).equals(built.js)).toBe(true);
  });

  it('sends gzip to a client without brotli, and the file itself to one without either', async () => {
    const gz = await rawGet(`${t.url}/assets/index-a1b2c3.js`, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(gz.body).equals(built.js)).toBe(true);

    const plain = await rawGet(`${t.url}/assets/index-a1b2c3.js`, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(built.js)).toBe(true);
    expect(readFileSync(join(t.dataDir, 'console/assets/index-a1b2c3.js')).equals(built.js)).toBe(
      true,
    );
  });

  it('revalidates index.html, the SPA fallback and unhashed files, compressed too', async () => {
    for (const path of ['/', '/setting', '/index.html']) {
      const res = await rawGet(`${t.url}${path}`, 'br');
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(res.body).equals(built.html)).toBe(true);
    }
    const fallback = await rawGet(`${t.url}/console/log`, 'gzip');
    expect(fallback.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(fallback.body).equals(built.html)).toBe(true);
    const plain = await rawGet(`${t.url}/console/log`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(built.html)).toBe(true);
    // Too small to be worth a copy: sent as it is, still revalidated.
    const icon = await rawGet(`${t.url}/favicon.svg`, 'br, gzip');
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('leaves the API and the relay uncompressed and uncached by the console', async () => {
    for (const path of ['/api/status', '/v1/models', '/api/no-such-route']) {
      const res = await rawGet(`${t.url}${path}`, 'br, gzip');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['cache-control'] ?? '').not.toMatch(/immutable|max-age=31536000/);
      expect(() => JSON.parse(res.body.toString('utf8')) as unknown).not.toThrow();
    }
  });
});
