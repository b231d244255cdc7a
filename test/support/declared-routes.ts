import fastify, { type FastifyInstance } from 'fastify';
import { RelayRoutes } from '../../apps/gateway/src/relay/relay.routes';
import type { TestApp } from './test-app';

/** `METHOD /url` of each route registered on a Fastify instance from now on (filled as they come). */
export function collectRoutes(instance: FastifyInstance): readonly string[] {
  const routes: string[] = [];
  instance.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push(`${method} ${route.url}`);
  });
  return routes;
}

/**
 * The relay's routes, read from RelayRoutes registering them on a bare instance: the same list
 * whichever Fastify instance serves them (the app's, or one of the relay's own in front of it).
 */
async function relayRoutes(t: TestApp): Promise<readonly string[]> {
  const probe = fastify();
  const routes = collectRoutes(probe);
  t.app.get(RelayRoutes).register(probe);
  await probe.ready();
  await probe.close();
  return routes;
}

/**
 * `METHOD /path` of every route the running app serves under these prefixes — Nest's controllers
 * and the relay's raw routes alike — for the suites that need a row per route. HEAD is left out:
 * Fastify adds it beside every GET.
 */
export async function registeredRoutes(t: TestApp, prefixes: readonly string[]): Promise<string[]> {
  const under = (path: string) => prefixes.some((p) => path === p || path.startsWith(`${p}/`));
  const all = new Set([...t.routes, ...(await relayRoutes(t))]);
  return [...all]
    .filter((route) => {
      const [method, path] = route.split(' ') as [string, string];
      return method !== 'HEAD' && under(path);
    })
    .sort();
}

/** Every /api route: each needs its rows in the role matrix and the fuzz suite. */
export const declaredRoutes = (t: TestApp): Promise<string[]> => registeredRoutes(t, ['/api']);
