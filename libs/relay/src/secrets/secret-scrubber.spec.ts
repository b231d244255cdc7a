import { SECRET_MASK } from './secret-search';
import { SecretScrubber } from './secret-scrubber';

const KEY = 'sk-live-7Qm2Zx9Lw4Rt8Yp1Kd6Hs3Nv';
const OTHER = 'second-secret-Vb5Jn0Cq';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

describe('SecretScrubber', () => {
  const scrubber = SecretScrubber.of([KEY, OTHER]);

  it.each<[string, string]>([
    ['the key alone', KEY],
    ['a Bearer header quoted', `Incorrect API key provided: Bearer ${KEY}.`],
    ['an x-api-key header quoted', `x-api-key: ${KEY} is not valid`],
    ['the key in a query string', `GET /v1/models?key=${encodeURIComponent(`${KEY}/+=`)}`],
    ['a form body', new URLSearchParams({ client_secret: `${KEY} x` }).toString()],
    ['a JSON string quoting the key', JSON.stringify({ message: `bad key ${KEY}/"` })],
    ['Basic auth', `Authorization: Basic ${b64(`user:${KEY}`)}`],
    ['Basic auth, the key first', `Basic ${b64(`${KEY}:x`)}`],
    ['base64url', `token=${b64url(`{"k":"${KEY}"}`)}`],
    ['the key twice and the other secret', `${KEY} and ${KEY} then ${OTHER}`],
    ['the second secret alone', `a${OTHER}b`],
  ])('masks %s', (_, text) => {
    const masked = scrubber.text(text);
    expect(masked).toContain(SECRET_MASK);
    expect(masked).not.toContain(KEY);
    expect(masked).not.toContain(OTHER);
    expect(masked).not.toContain(KEY.slice(0, 20));
    expect(masked).not.toContain(b64(KEY).slice(4, 24));
  });

  it('keeps what is around the key', () => {
    expect(scrubber.text(`Incorrect API key provided: Bearer ${KEY}.`)).toBe(
      'Incorrect API key provided: Bearer ***.',
    );
    expect(scrubber.text(`[${KEY}|${OTHER}]`)).toBe('[***|***]');
  });

  it('masks a text that ends with the beginning of a secret (cut by a length limit)', () => {
    expect(scrubber.text(`error: ${KEY.slice(0, 12)}`)).toBe('error: ***');
    // Fewer characters than a secret has at least: that is not a secret's beginning.
    expect(scrubber.text(`error: ${KEY.slice(0, 5)}`)).toBe(`error: ${KEY.slice(0, 5)}`);
  });

  it('answers the same text, and the same buffer, when there is nothing to mask', () => {
    const text = 'The server had an error while processing your request.';
    expect(scrubber.text(text)).toBe(text);
    const bytes = Buffer.from(text);
    expect(scrubber.bytes(bytes)).toBe(bytes);
  });

  it('masks bytes (a whole answer forwarded as it came)', () => {
    const body = Buffer.from(JSON.stringify({ error: { message: `key ${KEY}` } }));
    expect(JSON.parse(scrubber.bytes(body).toString())).toEqual({
      error: { message: 'key ***' },
    });
  });

  it('masks every string of a parsed JSON value', () => {
    const dto = {
      id: '1',
      failReason: `no account for ${KEY}`,
      buttons: [{ customId: OTHER, label: 'U1' }],
      progress: 100,
      done: true,
      missing: null,
    };
    expect(scrubber.json(dto)).toEqual({
      id: '1',
      failReason: 'no account for ***',
      buttons: [{ customId: '***', label: 'U1' }],
      progress: 100,
      done: true,
      missing: null,
    });
  });

  it('joins two sets', () => {
    const one = SecretScrubber.of([KEY]);
    const both = one.with(SecretScrubber.of([OTHER]));
    expect(one.text(OTHER)).toBe(OTHER);
    expect(both.text(`${KEY} ${OTHER}`)).toBe('*** ***');
    expect(one.with(SecretScrubber.NONE)).toBe(one);
  });

  it('masks nothing without secrets long enough to be ones', () => {
    const none = SecretScrubber.of(['', 'short']);
    expect(none).toBe(SecretScrubber.NONE);
    expect(none.active).toBe(false);
    expect(none.text('short')).toBe('short');
  });
});
