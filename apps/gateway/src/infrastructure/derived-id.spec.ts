import { newRequestId } from '../observability/request-id';
import { derivedId, requestDerivedId } from './derived-id';

const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestDerivedId', () => {
  it('takes a gateway-made request id milliseconds as its first 48 bits, the rest from the hash', () => {
    const requestId = newRequestId();
    const id = requestDerivedId('usage', requestId);
    expect(id).toMatch(UUID_V8);
    expect(id.slice(0, 13)).toBe(`${requestId.slice(0, 8)}-${requestId.slice(8, 12)}`);
    expect(id.slice(13)).toBe(derivedId(`usage:${requestId}`).slice(13));
    expect(parseInt(requestId.slice(0, 12), 16)).toBeLessThanOrEqual(Date.now());
  });

  it('is a function of the kind and the request: the same twice, another for another kind', () => {
    const requestId = newRequestId();
    expect(requestDerivedId('usage', requestId)).toBe(requestDerivedId('usage', requestId));
    expect(requestDerivedId('failure', requestId)).not.toBe(requestDerivedId('usage', requestId));
    expect(requestDerivedId('usage', newRequestId())).not.toBe(
      requestDerivedId('usage', requestId),
    );
  });

  it('orders the events of requests made in later milliseconds after the earlier ones', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(requestDerivedId('usage', newRequestId()));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect([...ids].sort()).toEqual(ids);
  });

  it('hashes every other request id whole (a client-made one, a random one)', () => {
    for (const requestId of ['req-1', 'f'.repeat(32), '0123456789ab4def8123456789abcdef']) {
      expect(requestDerivedId('usage', requestId)).toBe(derivedId(`usage:${requestId}`));
    }
  });
});

describe('derivedId', () => {
  it('gives the ids it gave before: a retry after an upgrade must still be a duplicate', () => {
    // The SHA-256 of the source, a hash sign and the index, as the log holds it since derived ids
    // were introduced.
    expect(derivedId('cmd-1', 0)).toBe('39e85035-01a2-8a15-86ea-b2ed58f359e3');
    expect(derivedId('cmd-1')).toBe(derivedId('cmd-1', 0));
    expect(derivedId('cmd-1', 1)).toMatch(UUID_V8);
  });
});
