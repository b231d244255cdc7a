import { RelayError } from '@tollgate/relay';
import { OPENAI_CLIENT } from './client-wire';
import { pathOfUrl, wireOfRelayPath } from './relay-paths';
import { requestPathOf } from './relay-edge';

/** Which protocol's error a path gets, told by the body an error becomes. */
const shapeOf = (path: string) => {
  const wire = wireOfRelayPath(path);
  if (!wire) return 'not the relay';
  if (wire === OPENAI_CLIENT) return 'openai';
  const body = wire.errorBody(new RelayError(404, 'x', 'invalid_request_error'), 'id') as Record<
    string,
    unknown
  >;
  return body['type'] === 'error' ? 'anthropic' : 'gemini';
};

describe('wireOfRelayPath', () => {
  it.each([
    ['/v1', 'openai'],
    ['/v1/nothing', 'openai'],
    ['/v1/messages', 'anthropic'],
    ['/v1/messages/count_tokens', 'anthropic'],
    ['/v1/messagesx', 'openai'],
    ['/v1beta', 'gemini'],
    ['/v1beta/models/x:generateContent', 'gemini'],
    ['/pg/chat/completions', 'openai'],
    ['/mj/submit/imagine', 'openai'],
    ['/mj-turbo/mj/submit/imagine', 'openai'],
    ['/suno', 'openai'],
    ['/v1x', 'not the relay'],
    ['/mjx', 'not the relay'],
    ['/api/status', 'not the relay'],
    ['/', 'not the relay'],
    ['/dashboard', 'not the relay'],
  ])('%s → %s', (path, shape) => {
    expect(shapeOf(path)).toBe(shape);
  });

  it('reads the path without its query', () => {
    expect(pathOfUrl('/v1/models?key=1')).toBe('/v1/models');
    expect(pathOfUrl('/v1/models')).toBe('/v1/models');
  });
});

describe('requestPathOf', () => {
  it('finds the path of a request line at the start of a packet, and nothing else', () => {
    const packet = (text: string) => Buffer.from(text, 'latin1');
    expect(requestPathOf(packet('GET /v1/models?x=1 HTTP/1.1\r\nHost: a\r\n'))).toBe('/v1/models');
    expect(requestPathOf(packet(`POST /v1/messages${'a'.repeat(20_000)}`))).toMatch(
      /^\/v1\/messages/,
    );
    expect(requestPathOf(packet('X-Big: yyyyyyyy\r\n'))).toBeUndefined();
    expect(requestPathOf(packet('GET http://host/v1 HTTP/1.1'))).toBeUndefined();
    expect(requestPathOf(undefined)).toBeUndefined();
  });
});
