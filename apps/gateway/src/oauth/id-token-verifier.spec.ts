import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type JSONWebKeySet,
  type JWTPayload,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import { loadConfig } from '../config/app-config';
import {
  ID_TOKEN_CLOCK_TOLERANCE_S,
  IdTokenRefused,
  IdTokenVerifier,
  verifyIdToken,
} from './id-token-verifier';

const ISSUER = 'https://sso.example.com';
const CLIENT = 'tollgate-client';
const NOW = new Date('2026-11-30T12:00:00Z');
const nowS = NOW.getTime() / 1000;
const KID = 'key-1';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
let provider: KeyPair;
let foreign: KeyPair;
let jwks: JSONWebKeySet;

beforeAll(async () => {
  [provider, foreign] = await Promise.all([generateKeyPair('RS256'), generateKeyPair('RS256')]);
  jwks = { keys: [{ ...(await exportJWK(provider.publicKey)), kid: KID, alg: 'RS256' }] };
});

/** A token as a provider would sign it: good by default, each claim overridable (undefined drops it). */
async function idToken(claims: JWTPayload = {}, key = provider.privateKey): Promise<string> {
  const payload: JWTPayload = {
    iss: ISSUER,
    aud: CLIENT,
    sub: 'user-7',
    iat: nowS - 5,
    exp: nowS + 300,
    ...claims,
  };
  for (const name of Object.keys(payload)) if (payload[name] === undefined) delete payload[name];
  return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: KID }).sign(key);
}

const verify = (token: string, nonce?: string) =>
  verifyIdToken(
    token,
    createLocalJWKSet(jwks),
    {
      issuer: ISSUER,
      clientId: CLIENT,
      ...(nonce === undefined ? {} : { nonce }),
    },
    NOW,
  );

/** The refusal's logged reason (never the token). */
const reason = (token: Promise<string>, nonce?: string) =>
  token
    .then((t) => verify(t, nonce))
    .then(
      () => 'accepted',
      (error: unknown) => (error instanceof IdTokenRefused ? error.message : String(error)),
    );

describe('verifyIdToken', () => {
  it("returns the subject of a token signed by the provider's key for this client", async () => {
    await expect(verify(await idToken())).resolves.toBe('user-7');
    await expect(verify(await idToken({ nonce: 'n-1' }), 'n-1')).resolves.toBe('user-7');
  });

  it('refuses a token signed with another key, or changed after signing', async () => {
    expect(await reason(idToken({}, foreign.privateKey))).toBe(
      'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    );
    const [header, , signature] = (await idToken()).split('.');
    const changed = Buffer.from(
      JSON.stringify({ iss: ISSUER, aud: CLIENT, sub: 'root', iat: nowS, exp: nowS + 300 }),
    ).toString('base64url');
    expect(await reason(Promise.resolve(`${header}.${changed}.${signature}`))).toBe(
      'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    );
  });

  it('refuses unsigned tokens and HMAC ones keyed with a shared secret', async () => {
    const unsecured = new UnsecuredJWT({ iss: ISSUER, aud: CLIENT, sub: 'x', iat: nowS })
      .setExpirationTime(nowS + 300)
      .encode();
    expect(await reason(Promise.resolve(unsecured))).toBe('ERR_JOSE_ALG_NOT_ALLOWED');
    const hmac = await new SignJWT({
      iss: ISSUER,
      aud: CLIENT,
      sub: 'x',
      iat: nowS,
      exp: nowS + 300,
    })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('the-client-secret-of-this-client'));
    expect(await reason(Promise.resolve(hmac))).toBe('ERR_JOSE_ALG_NOT_ALLOWED');
  });

  it('refuses another issuer or audience', async () => {
    expect(await reason(idToken({ iss: 'https://evil.example.com' }))).toBe(
      'ERR_JWT_CLAIM_VALIDATION_FAILED iss',
    );
    expect(await reason(idToken({ aud: 'another-client' }))).toBe(
      'ERR_JWT_CLAIM_VALIDATION_FAILED aud',
    );
  });

  it('with several audiences, wants us as the authorized party; a named one must be us', async () => {
    const both = [CLIENT, 'another-client'];
    expect(await reason(idToken({ aud: both }))).toBe('azp');
    expect(await reason(idToken({ aud: both, azp: 'another-client' }))).toBe('azp');
    expect(await reason(idToken({ aud: both, azp: CLIENT }))).toBe('accepted');
    expect(await reason(idToken({ azp: 'another-client' }))).toBe('azp');
  });

  it('refuses an expired token beyond the clock tolerance, and a missing expiry', async () => {
    expect(await reason(idToken({ exp: nowS - ID_TOKEN_CLOCK_TOLERANCE_S - 1 }))).toBe(
      'ERR_JWT_EXPIRED exp',
    );
    expect(await reason(idToken({ exp: nowS - ID_TOKEN_CLOCK_TOLERANCE_S + 5 }))).toBe('accepted');
    expect(await reason(idToken({ exp: undefined }))).toBe('ERR_JWT_CLAIM_VALIDATION_FAILED exp');
  });

  it('wants iat: not in the future, not older than a sign-in can take', async () => {
    expect(await reason(idToken({ iat: undefined }))).toBe('ERR_JWT_CLAIM_VALIDATION_FAILED iat');
    expect(await reason(idToken({ iat: nowS + ID_TOKEN_CLOCK_TOLERANCE_S + 30 }))).toBe(
      'ERR_JWT_CLAIM_VALIDATION_FAILED iat',
    );
    expect(await reason(idToken({ iat: nowS - 3600, exp: nowS + 3600 }))).toBe(
      'ERR_JWT_EXPIRED iat',
    );
  });

  it('wants a subject of at most 255 characters', async () => {
    expect(await reason(idToken({ sub: undefined }))).toBe('ERR_JWT_CLAIM_VALIDATION_FAILED sub');
    expect(await reason(idToken({ sub: 'x'.repeat(256) }))).toBe('sub');
  });

  it('checks the nonce when one was sent, and only then', async () => {
    expect(await reason(idToken({ nonce: 'other' }), 'n-1')).toBe('nonce');
    expect(await reason(idToken(), 'n-1')).toBe('nonce');
    expect(await reason(idToken({ nonce: 'n-1' }), 'n-1')).toBe('accepted');
    // new-api's console sends no nonce: none is expected.
    expect(await reason(idToken())).toBe('accepted');
  });
});

describe('IdTokenVerifier (remote key set)', () => {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'id-token-')),
    SESSION_SECRET: 'spec',
    OAUTH_TIMEOUT_MS: '300',
  });
  const expected = { issuer: ISSUER, clientId: CLIENT };
  let server: Server;
  let url: string;
  let reads = 0;
  let answer = true;

  beforeAll(async () => {
    server = createServer((req, res) => {
      reads += 1;
      if (!answer) return; // never answers: the read must time out
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(jwks));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    url = `http://127.0.0.1:${address.port}/jwks`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("reads the provider's keys once and keeps them for the next tokens", async () => {
    const verifier = new IdTokenVerifier(config);
    const fresh = (claims: JWTPayload) =>
      new SignJWT({ iss: ISSUER, aud: CLIENT, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: KID })
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(provider.privateKey);
    await expect(verifier.verify(await fresh({ sub: 'a' }), url, expected)).resolves.toBe('a');
    await expect(verifier.verify(await fresh({ sub: 'b' }), url, expected)).resolves.toBe('b');
    expect(reads).toBe(1);
  });

  it('gives up on keys that do not come within OAUTH_TIMEOUT_MS: unreachable, not forged', async () => {
    answer = false;
    const started = Date.now();
    const error = await new IdTokenVerifier(config)
      .verify(await idToken(), `${url}?slow`, expected)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdTokenRefused);
    expect(error).toMatchObject({ message: 'ERR_JWKS_TIMEOUT', keysUnreachable: true });
    expect(Date.now() - started).toBeLessThan(3000);
    answer = true;
  });

  it('an unreachable key set is unreachable too', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const error = await new IdTokenVerifier(config)
      .verify(await idToken(), `http://127.0.0.1:${port}/jwks`, expected)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ keysUnreachable: true });
  });
});
