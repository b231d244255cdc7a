import { BaiduKeyError, parseBaiduKey } from './baidu-key';
import { BaiduTokenCache, type TokenFetch } from './baidu-token';

const KEY = { apiKey: 'ak-1', secretKey: 'sk-1' };
const T0 = new Date('2024-03-01T00:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

function fakeFetch(answers: Array<{ status: number; body: unknown }>) {
  const calls: Array<{ url: string; method: string }> = [];
  const fetchToken: TokenFetch = async (url, init) => {
    calls.push({ url, method: init.method });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return { status: answer.status, text: async () => JSON.stringify(answer.body) };
  };
  return { calls, fetchToken };
}
const granted = (token: string, expiresIn = 2592000) => ({
  status: 200,
  body: {
    refresh_token: '25.r',
    expires_in: expiresIn,
    session_key: 's',
    access_token: token,
    scope: 'public ai_custom_yiyan_com',
    session_secret: 'x',
  },
});

describe('parseBaiduKey', () => {
  it('splits API_KEY|SECRET_KEY and trims the parts', () => {
    expect(parseBaiduKey(' ak | sk ')).toEqual({ apiKey: 'ak', secretKey: 'sk' });
  });

  it('names the wrong part without echoing the key', () => {
    expect(() => parseBaiduKey('only-one')).toThrow(BaiduKeyError);
    expect(() => parseBaiduKey('only-one')).toThrow('got 1 part(s)');
    expect(() => parseBaiduKey('|sk')).toThrow('the API key is empty');
    expect(() => parseBaiduKey('ak|')).toThrow('the secret key is empty');
    expect(() => parseBaiduKey('a k|sk')).toThrow('may not contain spaces');
  });
});

describe('BaiduTokenCache', () => {
  it('exchanges the key with the documented client-credentials call', async () => {
    const { calls, fetchToken } = fakeFetch([granted('24.abc')]);
    const cache = new BaiduTokenCache(fetchToken);
    await expect(cache.accessToken('https://aip.baidubce.com', KEY, T0)).resolves.toBe('24.abc');
    expect(calls).toEqual([
      {
        method: 'POST',
        url: 'https://aip.baidubce.com/oauth/2.0/token?grant_type=client_credentials&client_id=ak-1&client_secret=sk-1',
      },
    ]);
  });

  it('reuses the token until an hour before it expires, then exchanges again', async () => {
    const { calls, fetchToken } = fakeFetch([granted('24.first', 7200), granted('24.second')]);
    const cache = new BaiduTokenCache(fetchToken);
    expect(await cache.accessToken('b', KEY, T0)).toBe('24.first');
    expect(await cache.accessToken('b', KEY, at(59 * 60 * 1000))).toBe('24.first');
    expect(calls).toHaveLength(1);
    expect(await cache.accessToken('b', KEY, at(60 * 60 * 1000))).toBe('24.second');
    expect(calls).toHaveLength(2);
  });

  it('shares one exchange between concurrent calls and keeps keys apart', async () => {
    const { calls, fetchToken } = fakeFetch([granted('24.a'), granted('24.b')]);
    const cache = new BaiduTokenCache(fetchToken);
    const [a1, a2] = await Promise.all([
      cache.accessToken('b', KEY, T0),
      cache.accessToken('b', KEY, T0),
    ]);
    expect([a1, a2]).toEqual(['24.a', '24.a']);
    expect(await cache.accessToken('b', { apiKey: 'ak-2', secretKey: 'sk-2' }, T0)).toBe('24.b');
    expect(calls).toHaveLength(2);
  });

  it('throws the OAuth error description and caches nothing on failure', async () => {
    const { calls, fetchToken } = fakeFetch([
      { status: 401, body: { error: 'invalid_client', error_description: 'unknown client id' } },
      granted('24.ok'),
    ]);
    const cache = new BaiduTokenCache(fetchToken);
    await expect(cache.accessToken('b', KEY, T0)).rejects.toThrow(
      'Baidu access token exchange failed: unknown client id',
    );
    expect(await cache.accessToken('b', KEY, T0)).toBe('24.ok');
    expect(calls).toHaveLength(2);
  });
});
