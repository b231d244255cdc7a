import { createHash, createHmac } from 'node:crypto';
import type { ProviderRequest } from '../chat-adaptor';
import { signBedrockRequest } from './bedrock-signing';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) =>
  createHmac('sha256', key).update(data).digest();

const credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};
const now = new Date('2024-05-01T12:34:56.789Z');
const body = Buffer.from('{"anthropic_version":"bedrock-2023-05-31","max_tokens":16}');
const request: ProviderRequest = {
  origin: 'https://bedrock-runtime.us-east-1.amazonaws.com',
  path: '/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/invoke',
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json' },
  body,
};

/** The documented SigV4 steps, computed here with node:crypto only (independent of the signer). */
function expectedSignature(headers: Record<string, string>, path: string): string {
  const names = Object.keys(headers)
    .filter((name) => name !== 'authorization')
    .sort();
  const canonical = [
    'POST',
    // Each segment URI-encoded again: %3A becomes %253A.
    path.replace(/%/g, '%25'),
    '',
    ...names.map((name) => `${name}:${headers[name]!.trim()}`),
    '',
    names.join(';'),
    sha256(body),
  ].join('\n');
  const scope = '20240501/us-east-1/bedrock/aws4_request';
  const toSign = ['AWS4-HMAC-SHA256', '20240501T123456Z', scope, sha256(canonical)].join('\n');
  const kDate = hmac(`AWS4${credentials.secretAccessKey}`, '20240501');
  const kRegion = hmac(kDate, 'us-east-1');
  const kService = hmac(kRegion, 'bedrock');
  const kSigning = hmac(kService, 'aws4_request');
  return createHmac('sha256', kSigning).update(toSign).digest('hex');
}

describe('signBedrockRequest', () => {
  it('adds host, date, payload hash and a SigV4 authorization that matches the documented steps', async () => {
    const signed = await signBedrockRequest(request, credentials, 'us-east-1', now);
    expect(signed.headers).toMatchObject({
      host: 'bedrock-runtime.us-east-1.amazonaws.com',
      'x-amz-date': '20240501T123456Z',
      'x-amz-content-sha256': sha256(body),
      'content-type': 'application/json',
      accept: 'application/json',
    });
    const auth = signed.headers.authorization!;
    expect(auth).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240501/us-east-1/bedrock/aws4_request, ' +
        'SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date, ' +
        `Signature=${expectedSignature(signed.headers, request.path)}`,
    );
    // Everything else is untouched: the gateway sends exactly these bytes to that URL.
    expect(signed.origin).toBe(request.origin);
    expect(signed.path).toBe(request.path);
    expect(signed.body).toBe(body);
    expect(request.headers).not.toHaveProperty('authorization');
  });

  it('signs the session token of temporary credentials', async () => {
    const signed = await signBedrockRequest(
      request,
      { ...credentials, sessionToken: 'FQoGZXIvYXdzEXAMPLE' },
      'us-east-1',
      now,
    );
    expect(signed.headers['x-amz-security-token']).toBe('FQoGZXIvYXdzEXAMPLE');
    expect(signed.headers.authorization).toContain(
      'SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token,',
    );
    expect(signed.headers.authorization).toContain(
      `Signature=${expectedSignature(signed.headers, request.path)}`,
    );
  });

  it('signs the host of a non-default origin with its port, and a changed body changes the signature', async () => {
    const local = { ...request, origin: 'http://127.0.0.1:8123' };
    const a = await signBedrockRequest(local, credentials, 'eu-west-1', now);
    expect(a.headers.host).toBe('127.0.0.1:8123');
    expect(a.headers.authorization).toContain('/eu-west-1/bedrock/aws4_request');
    const b = await signBedrockRequest(
      { ...local, body: Buffer.from('{}') },
      credentials,
      'eu-west-1',
      now,
    );
    expect(b.headers.authorization).not.toBe(a.headers.authorization);
  });

  it('lower-cases header names so a caller `Host` is replaced, not duplicated', async () => {
    const signed = await signBedrockRequest(
      { ...request, headers: { 'Content-Type': 'application/json', Host: 'wrong.example' } },
      credentials,
      'us-east-1',
      now,
    );
    expect(Object.keys(signed.headers).filter((name) => name.toLowerCase() === 'host')).toEqual([
      'host',
    ]);
    expect(signed.headers.host).toBe('bedrock-runtime.us-east-1.amazonaws.com');
  });
});
