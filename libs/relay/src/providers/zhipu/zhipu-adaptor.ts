/**
 * Zhipu ChatGLM (type 16, one-api's and new-api's legacy "v3" channels). Zhipu's v3 model API is
 * retired; its v4 API speaks the OpenAI wire (type 26's path) and accepts the same `id.secret` keys
 * signed into a short-lived JWT, which is what a type-16 channel sends. A key without a secret part
 * goes as it is (v4 also takes the plain key).
 */
import { withFields } from '@tollgate/domain';
import { createHmac } from 'node:crypto';
import { CHANNEL_TYPE } from '../../openai/openai-wire';
import type { ChatAdaptor } from '../chat-adaptor';
import { OPENAI_WIRE_ADAPTOR } from '../openai-wire-adaptor';

/** How long a signed token is valid (Zhipu's SDKs sign for 3 minutes per call; we sign per call). */
const TOKEN_TTL_MS = 3 * 60 * 1000;

const base64url = (text: string | Buffer): string => Buffer.from(text).toString('base64url');

/** Zhipu's JWT for an `id.secret` key: HS256 with `sign_type: SIGN`, times in milliseconds. */
export function zhipuToken(key: string, now: Date): string {
  const dot = key.indexOf('.');
  if (dot <= 0 || dot === key.length - 1) return key;
  const id = key.slice(0, dot);
  const secret = key.slice(dot + 1);
  const header = base64url(JSON.stringify({ alg: 'HS256', sign_type: 'SIGN' }));
  const payload = base64url(
    JSON.stringify({ api_key: id, exp: now.getTime() + TOKEN_TTL_MS, timestamp: now.getTime() }),
  );
  const signature = base64url(createHmac('sha256', secret).update(`${header}.${payload}`).digest());
  return `${header}.${payload}.${signature}`;
}

export const ZHIPU_ADAPTOR: ChatAdaptor = withFields<
  ChatAdaptor,
  Pick<ChatAdaptor, 'name' | 'request'>
>(OPENAI_WIRE_ADAPTOR, {
  name: 'zhipu',
  request(endpoint, openai, channel, upstreamModel, stream, now) {
    const v4 = withFields(channel, { type: CHANNEL_TYPE.zhipuV4 });
    const req = OPENAI_WIRE_ADAPTOR.request(endpoint, openai, v4, upstreamModel, stream, now);
    return withFields(req, {
      headers: withFields(req.headers, { authorization: `Bearer ${zhipuToken(channel.key, now)}` }),
    });
  },
});
