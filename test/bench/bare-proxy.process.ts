/**
 * The physical-limit baseline: node:http in front, an undici Pool behind, bytes passed through
 * unchanged — no auth, no routing, no billing, no events. What the gateway adds is measured against
 * this, in the same run, on the same CPU. Prints `READY <url>`.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { Pool } from 'undici';

const upstreamUrl = process.env.UPSTREAM_URL ?? '';
const pool = new Pool(upstreamUrl, { connections: 256, pipelining: 1 });

const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade']);

function forwardable(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const server = createServer((req, res) => {
  pool
    .request({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: forwardable(req.headers),
      body: req.method === 'GET' || req.method === 'HEAD' ? null : req,
    })
    .then(({ statusCode, headers, body }) => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
      }
      res.writeHead(statusCode, out);
      body.pipe(res);
    })
    .catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  const port = address && typeof address !== 'string' ? address.port : 0;
  process.stdout.write(`READY http://127.0.0.1:${port}\n`);
});
const stop = () => server.close(() => void pool.close().finally(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
