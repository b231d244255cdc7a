import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { pickLang, translate } from '../shared/i18n/messages';

/** Paths the console must never shadow: API, relay and socket routes answer for themselves. */
const SERVER_PREFIXES = ['/api', '/v1', '/pg', '/mj', '/suno', '/socket.io'];

/**
 * Serves the built console from one origin: its files as they are, and index.html for any other GET
 * (client-side routes such as /setting). Unknown server paths get the envelope's 404.
 */
export async function serveConsole(fastify: FastifyInstance, consoleDir: string): Promise<boolean> {
  const indexFile = join(consoleDir, 'index.html');
  const hasConsole = existsSync(indexFile);
  if (hasConsole)
    await fastify.register(fastifyStatic, { root: consoleDir, wildcard: false, index: false });
  const indexHtml = hasConsole ? readFileSync(indexFile, 'utf8') : '';

  // A wildcard is the router's last resort: every Nest route and static file wins over it.
  fastify.get('/*', (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isServerPath = SERVER_PREFIXES.some(
      (prefix) => path === prefix || path.startsWith(`${prefix}/`),
    );
    if (hasConsole && !isServerPath) {
      void reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(indexHtml);
      return;
    }
    void reply.status(404).send({
      success: false,
      message: translate('common.not_found', {}, pickLang(request.headers['accept-language'])),
    });
  });
  return hasConsole;
}
