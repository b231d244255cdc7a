import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { pickLang, translate } from '../shared/i18n/messages';
import { loadConsoleIndex, pickIndexVariant, type ConsoleIndex } from './console-index';

/** Paths the console must never shadow: API, relay and socket routes answer for themselves. */
const SERVER_PREFIXES = ['/api', '/v1', '/pg', '/mj', '/suno', '/socket.io'];

/** Vite names every file under assets/ by its content hash: a new build means a new name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html and the unhashed public files: kept, but checked again before each use. */
const REVALIDATE = 'no-cache';

/**
 * Serves the built console from one origin: its files as they are (or their .br/.gz copies when
 * the client accepts them), and index.html for any other GET (client-side routes such as /setting).
 * Unknown server paths get the envelope's 404.
 */
export async function serveConsole(fastify: FastifyInstance, consoleDir: string): Promise<boolean> {
  const indexFile = join(consoleDir, 'index.html');
  const hasConsole = existsSync(indexFile);
  const assetsDir = join(consoleDir, 'assets') + sep;
  if (hasConsole)
    await fastify.register(fastifyStatic, {
      root: consoleDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply: FastifyReply, path: string) => {
        void reply.header('cache-control', path.startsWith(assetsDir) ? IMMUTABLE : REVALIDATE);
      },
    });
  const index = hasConsole ? loadConsoleIndex(indexFile) : undefined;

  // A wildcard is the router's last resort: every Nest route and static file wins over it.
  fastify.get('/*', (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isServerPath = SERVER_PREFIXES.some(
      (prefix) => path === prefix || path.startsWith(`${prefix}/`),
    );
    if (index && !isServerPath) {
      sendIndex(reply, index, request.headers['accept-encoding']);
      return;
    }
    void reply.status(404).send({
      success: false,
      message: translate('common.not_found', {}, pickLang(request.headers['accept-language'])),
    });
  });
  return hasConsole;
}

function sendIndex(reply: FastifyReply, index: ConsoleIndex, acceptEncoding?: string | string[]) {
  const { encoding, body } = pickIndexVariant(index, acceptEncoding);
  void reply.header('cache-control', REVALIDATE).header('vary', 'Accept-Encoding');
  if (encoding !== 'identity') void reply.header('content-encoding', encoding);
  void reply.type('text/html; charset=utf-8').send(body);
}
