import { createHmac } from 'node:crypto';
import { ZHIPU_ADAPTOR, zhipuToken } from './zhipu-adaptor';
import { wireChannel } from '../testing-fixtures';

const channel = wireChannel(16, { baseUrl: 'https://open.bigmodel.cn', key: 'a1b2c3.s3cr3t' });
const now = new Date('2026-03-01T12:00:00Z');
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe('Zhipu (type 16): the v4 OpenAI-wire API with a signed JWT', () => {
  it('signs id.secret keys as HS256 with sign_type SIGN and millisecond times', () => {
    const token = zhipuToken('a1b2c3.s3cr3t', now);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    expect(decode(header)).toEqual({ alg: 'HS256', sign_type: 'SIGN' });
    expect(decode(payload)).toEqual({
      api_key: 'a1b2c3',
      timestamp: now.getTime(),
      exp: now.getTime() + 180_000,
    });
    const expected = createHmac('sha256', 's3cr3t')
      .update(`${header}.${payload}`)
      .digest('base64url');
    expect(signature).toBe(expected);
  });

  it('sends a key without a secret part as it is', () => {
    expect(zhipuToken('plain-key', now)).toBe('plain-key');
    expect(zhipuToken('trailing.', now)).toBe('trailing.');
  });

  it('posts the OpenAI body to /api/paas/v4 with the token as Bearer', () => {
    const req = ZHIPU_ADAPTOR.request(
      'chat',
      { model: 'glm-4', messages: [{ role: 'user', content: 'hi' }] },
      channel,
      'glm-4-plus',
      false,
      now,
    );
    expect(req.origin).toBe('https://open.bigmodel.cn');
    expect(req.path).toBe('/api/paas/v4/chat/completions');
    expect(req.headers.authorization).toBe(`Bearer ${zhipuToken(channel.key, now)}`);
    expect(JSON.parse(req.body.toString())).toEqual({
      model: 'glm-4-plus',
      messages: [{ role: 'user', content: 'hi' }],
    });
  });
});
