import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type * as Jose from 'jose';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { OAUTH_STATE_TTL_MS } from './oauth-state';

/**
 * Signatures accepted on id_tokens: asymmetric only. The keys are the provider's public JWKS, so
 * neither `none` nor an HMAC keyed with the client secret can pass.
 */
export const ID_TOKEN_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];
/** Clock difference tolerated between the provider and this gateway (exp, iat). */
export const ID_TOKEN_CLOCK_TOLERANCE_S = 60;
/** The token endpoint answers a fresh id_token: one issued before the sign-in could start is old. */
const ID_TOKEN_MAX_AGE_S = OAUTH_STATE_TTL_MS / 1000;
/** The subject becomes a guard stream's name: the bindings refuse longer ids anyway. */
const MAX_SUBJECT_LENGTH = 255;

/** What the id_token must say besides a good signature. */
export interface IdTokenExpectations {
  /** The discovery document's `issuer`. */
  readonly issuer: string;
  /** Our client id: the audience (and the authorized party when there are several audiences). */
  readonly clientId: string;
  /** Sent in the authorization URL by Tollgate's own flow; new-api's console's flow sends none. */
  readonly nonce?: string;
}

/** The id_token was refused; `message` is a short reason for the log, never the token or claims. */
export class IdTokenRefused extends Error {
  constructor(
    reason: string,
    /** The provider's keys could not be read (timeout, network): not the token's fault. */
    readonly keysUnreachable = false,
  ) {
    super(reason);
  }
}

/** Where the signing keys of an id_token are looked up (a JWKS, remote or local). */
export type IdTokenKeys = Jose.JWTVerifyGetKey;

// Loaded on the first OpenID Connect sign-in, not at every start-up.
const loadJose = (): Promise<typeof Jose> => import('jose');

const sameText = (a: string, b: string): boolean => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Verifies an id_token (OpenID Connect Core 3.1.3.7): signature by one of `keys`, `iss`, `aud`
 * (and `azp`), `exp` and `iat` within the clock tolerance, a subject, and the nonce when one was
 * sent. Returns the subject.
 */
export async function verifyIdToken(
  idToken: string,
  keys: IdTokenKeys,
  expected: IdTokenExpectations,
  now: Date = new Date(),
): Promise<string> {
  const { jwtVerify } = await loadJose();
  let payload: Jose.JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keys, {
      issuer: expected.issuer,
      audience: expected.clientId,
      algorithms: ID_TOKEN_ALGORITHMS,
      clockTolerance: ID_TOKEN_CLOCK_TOLERANCE_S,
      maxTokenAge: ID_TOKEN_MAX_AGE_S,
      requiredClaims: ['sub', 'exp', 'iat'],
      currentDate: now,
    }));
  } catch (error) {
    const { code, claim, name } = error as { code?: string; claim?: string; name?: string };
    // jose's own errors have a code; anything else is the key set's fetch failing underneath.
    const unreachable = code === undefined || code === 'ERR_JWKS_TIMEOUT';
    throw new IdTokenRefused([code ?? name, claim].filter(Boolean).join(' '), unreachable);
  }
  // Several audiences: the token must name us as the party it was issued to; a named one must be us.
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  const azp = payload['azp'];
  if ((audiences.length > 1 || azp !== undefined) && azp !== expected.clientId)
    throw new IdTokenRefused('azp');
  if (expected.nonce !== undefined) {
    const nonce = payload['nonce'];
    if (typeof nonce !== 'string' || !sameText(nonce, expected.nonce))
      throw new IdTokenRefused('nonce');
  }
  const subject = payload.sub ?? '';
  if (!subject || subject.length > MAX_SUBJECT_LENGTH) throw new IdTokenRefused('sub');
  return subject;
}

/**
 * The provider's signing keys from its `jwks_uri`, through jose's remote JWK set: cached, read
 * again when a token names a key it does not hold (key rotation), each read bounded by
 * OAUTH_TIMEOUT_MS.
 */
@Injectable()
export class IdTokenVerifier {
  private keySet: { uri: string; keys: IdTokenKeys } | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The id_token's subject once verified against the keys at `jwksUri`; IdTokenRefused if not. */
  async verify(idToken: string, jwksUri: string, expected: IdTokenExpectations): Promise<string> {
    return verifyIdToken(idToken, await this.keysAt(jwksUri), expected);
  }

  private async keysAt(uri: string): Promise<IdTokenKeys> {
    if (this.keySet?.uri === uri) return this.keySet.keys;
    const { createRemoteJWKSet } = await loadJose();
    const keys = createRemoteJWKSet(new URL(uri), { timeoutDuration: this.config.oauth.timeoutMs });
    this.keySet = { uri, keys };
    return keys;
  }
}
