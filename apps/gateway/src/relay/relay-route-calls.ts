/** What each relay route's call is, shared by its Fastify route and its fast-lane twin. */
import type { IncomingHttpHeaders } from 'node:http';
import type { RelayEndpoint } from '@tollgate/relay';
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
