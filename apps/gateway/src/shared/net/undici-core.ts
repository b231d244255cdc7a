import type * as Undici from 'undici';

/**
 * The parts of undici the gateway calls (pools, agents, the connector), loaded from undici's own
 * files rather than from its index: the index also loads fetch, WebSocket, EventSource, the HTTP
 * caches and the mocks, ~3 MiB of heap each process would hold for nothing. undici has no
 * `exports` map, so these files are reachable; `undici-core.spec.ts` checks that they are the
 * index's own classes, so an upgrade that moves them fails there and not in production.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- undici's files, not its index
const undiciFile = (path: string): unknown => require(`undici/lib/${path}`);

export const Pool = undiciFile('dispatcher/pool') as typeof Undici.Pool;
export type Pool = Undici.Pool;
export const Agent = undiciFile('dispatcher/agent') as typeof Undici.Agent;
export type Agent = Undici.Agent;
export const buildConnector = undiciFile('core/connect') as typeof Undici.buildConnector;
const { getGlobalDispatcher } = undiciFile('global') as Pick<typeof Undici, 'getGlobalDispatcher'>;

// What undici's index does on load: every dispatcher gets request, stream, pipeline, connect and
// upgrade (the relay calls `pool.request`).
Object.assign(
  (undiciFile('dispatcher/dispatcher') as typeof Undici.Dispatcher).prototype,
  undiciFile('api'),
);

type UrlRequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'> & {
  /** undici's global agent when absent, as undici's `request` does. */
  dispatcher?: Undici.Dispatcher;
};

/**
 * undici's `request(url, options)`: the URL split into the origin and path a dispatcher takes. A
 * URL that does not parse rejects, as undici's does (no synchronous throw).
 */
export async function requestUrl(
  url: string,
  options: UrlRequestOptions,
): Promise<Undici.Dispatcher.ResponseData> {
  const { dispatcher = getGlobalDispatcher(), ...rest } = options;
  const target = new URL(url);
  return dispatcher.request({
    ...rest,
    origin: target.origin,
    path: target.pathname + target.search,
  });
}
