/** What each relay route's call is, shared by its Fastify route and its fast-lane twin. */
import type { IncomingHttpHeaders } from 'node:http';
import { type IngressKind, RELAY_ENDPOINTS, type RelayEndpoint } from '@tollgate/relay';
import type { RelayCall } from './relay-call';
import { RELAY_AUDIO_BODY_LIMIT, RELAY_JSON_BODY_LIMIT } from './relay-http';

/** How a route's call is relayed: what its path and protocol say. */
export type CallHow = Pick<
  RelayCall,
  | 'endpoint'
  | 'route'
  | 'modelFromPath'
  | 'ingress'
  | 'streamFromPath'
  | 'arrayStream'
  | 'clientHeaders'
  | 'playground'
>;

/** The console's playground: billed to the user the gate admitted, no token. */
export const PLAYGROUND_CALL: CallHow = {
  endpoint: 'chat',
  route: '/pg/chat/completions',
  playground: true,
};

/** Audio uploads are multipart files; every other call is JSON. */
export function bodyLimitOf(endpoint: RelayEndpoint): number {
  const audio = endpoint === 'audioTranscriptions' || endpoint === 'audioTranslations';
  return audio ? RELAY_AUDIO_BODY_LIMIT : RELAY_JSON_BODY_LIMIT;
}

/** Anthropic's Messages API: `x-api-key` (or Bearer), answers and errors in its shapes. */
export function messagesHow(headers: IncomingHttpHeaders): CallHow {
  const header = (name: string): string | undefined => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return {
    endpoint: 'chat',
    route: '/v1/messages',
    ingress: 'anthropic',
    clientHeaders: {
      'anthropic-version': header('anthropic-version'),
      'anthropic-beta': header('anthropic-beta'),
    },
  };
}

/** A call served at one exact path: by its Fastify route and by the fast lane alike. */
export interface ExactCall {
  readonly path: string;
  /** Where the key is and whose error shape answers (undefined: OpenAI's). */
  readonly ingress: IngressKind | undefined;
  readonly bodyLimit: number;
  how(headers: IncomingHttpHeaders): CallHow;
}

/** OpenAI's endpoints under /v1 and Anthropic's Messages. */
export const EXACT_CALLS: readonly ExactCall[] = [
  ...(Object.entries(RELAY_ENDPOINTS) as Array<[RelayEndpoint, string]>).map(
    ([endpoint, tail]): ExactCall => {
      const how: CallHow = { endpoint, route: `/v1${tail}` };
      return {
        path: how.route,
        ingress: undefined,
        bodyLimit: bodyLimitOf(endpoint),
        how: () => how,
      };
    },
  ),
  {
    path: '/v1/messages',
    ingress: 'anthropic',
    bodyLimit: RELAY_JSON_BODY_LIMIT,
    how: messagesHow,
  },
];
