import { type ClientWire, clientWireOfIngress, OPENAI_CLIENT } from './client-wire';

/**
 * The URL prefixes the relay answers for, whatever the path below them: OpenAI's API, the
 * playground, the Midjourney (with new-api's mode prefixes) and Suno task relays.
 */
const OPENAI_PREFIXES = ['/v1', '/pg', '/mj', '/mj-fast', '/mj-relax', '/mj-turbo', '/suno'];
const ANTHROPIC_PREFIX = '/v1/messages';
const GEMINI_PREFIX = '/v1beta';

const ANTHROPIC_CLIENT = clientWireOfIngress('anthropic');
const GEMINI_CLIENT = clientWireOfIngress('gemini');

const under = (path: string, prefix: string) =>
  path === prefix || (path.startsWith(prefix) && path.charCodeAt(prefix.length) === 0x2f); // '/'

/** The path of a request target, without its query. */
export function pathOfUrl(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Whose error shape an answer under this path takes: Anthropic's under /v1/messages, Google's
 * under /v1beta, OpenAI's elsewhere under the relay's prefixes; undefined outside the relay.
 */
export function wireOfRelayPath(path: string): ClientWire | undefined {
  if (under(path, ANTHROPIC_PREFIX)) return ANTHROPIC_CLIENT;
  if (under(path, GEMINI_PREFIX)) return GEMINI_CLIENT;
  return OPENAI_PREFIXES.some((prefix) => under(path, prefix)) ? OPENAI_CLIENT : undefined;
}
