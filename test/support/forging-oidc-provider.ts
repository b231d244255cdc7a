import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

/** How the next id_token is made: claims changed or dropped (undefined), or another key. */
export interface Forgery {
  readonly claims?: JWTPayload;
  /** Signed with a key the provider's JWKS does not hold (same key id). */
  readonly foreignKey?: boolean;
  /** The token endpoint answers an access token only. */
  readonly noIdToken?: boolean;
  /** The user info endpoint names another subject. */
  readonly userInfoSub?: string;
  /** The user info endpoint answers this status instead. */
  readonly userInfoStatus?: number;
}

const KEY_ID = 'forging-provider-key';

/**
 * An OpenID provider for the tests that need id_tokens no real provider would issue: discovery
 * document, JWKS, token and user info endpoints on 127.0.0.1. Any code is exchanged (with the
 * right client credentials); the subject is the code up to its first dot (`alice.1`: alice), and
 * the id_token is honest unless a forgery is set for the next exchange.
 */
export class ForgingOidcProvider {
  private next: Forgery = {};
  private readonly grants = new Map<string, Forgery & { sub: string }>();
  private readonly server: Server;
  private url = '';

  private constructor(
    private readonly keys: { own: PrivateKey; foreign: PrivateKey; jwk: object },
    private readonly client: { id: string; secret: string },
  ) {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        void this.answer(req.method ?? 'GET', req.url ?? '/', req.headers, body).then(
          ([status, answer]) => {
            res.writeHead(status, { 'Content-Type': 'application/json' });
            res.end(JSON.stringify(answer));
          },
        );
      });
    });
  }

  static async start(clientId: string, clientSecret: string): Promise<ForgingOidcProvider> {
    const [own, foreign] = await Promise.all([generateKeyPair('ES256'), generateKeyPair('ES256')]);
    const jwk = { ...(await exportJWK(own.publicKey)), kid: KEY_ID, alg: 'ES256', use: 'sig' };
    const provider = new ForgingOidcProvider(
      { own: own.privateKey, foreign: foreign.privateKey, jwk },
      { id: clientId, secret: clientSecret },
    );
    await new Promise<void>((resolve) => provider.server.listen(0, '127.0.0.1', resolve));
    const { port } = provider.server.address() as { port: number };
    provider.url = `http://127.0.0.1:${port}`;
    return provider;
  }

  get wellKnown(): string {
    return `${this.url}/.well-known/openid-configuration`;
  }

  /** The next code exchange answers this way (then honest again). */
  forgeNext(forgery: Forgery): void {
    this.next = forgery;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(
    method: string,
    path: string,
    headers: Record<string, string | string[] | undefined>,
    body: string,
  ): Promise<[number, unknown]> {
    const url = new URL(path, this.url);
    if (url.pathname === '/.well-known/openid-configuration')
      return [
        200,
        {
          issuer: this.url,
          authorization_endpoint: `${this.url}/auth`,
          token_endpoint: `${this.url}/token`,
          userinfo_endpoint: `${this.url}/me`,
          jwks_uri: `${this.url}/jwks`,
          token_endpoint_auth_methods_supported: ['client_secret_post'],
        },
      ];
    if (url.pathname === '/jwks') return [200, { keys: [this.keys.jwk] }];
    if (url.pathname === '/token' && method === 'POST')
      return this.token(new URLSearchParams(body));
    if (url.pathname === '/me') {
      const grant = this.grants.get(String(headers.authorization ?? '').replace(/^Bearer /, ''));
      if (!grant) return [401, { error: 'invalid_token' }];
      if (grant.userInfoStatus) return [grant.userInfoStatus, {}];
      const sub = grant.userInfoSub ?? grant.sub;
      return [200, { sub, email: `${grant.sub}@example.test`, preferred_username: grant.sub }];
    }
    return [404, { error: 'not_found' }];
  }

  private async token(form: URLSearchParams): Promise<[number, unknown]> {
    if (
      form.get('client_id') !== this.client.id ||
      form.get('client_secret') !== this.client.secret
    )
      return [401, { error: 'invalid_client' }];
    const sub = (form.get('code') ?? '').split('.')[0]!;
    const forgery = this.next;
    this.next = {};
    const accessToken = `forging-at-${this.grants.size + 1}`;
    this.grants.set(accessToken, { ...forgery, sub });
    if (forgery.noIdToken) return [200, { access_token: accessToken, token_type: 'Bearer' }];
    const now = Math.floor(Date.now() / 1000);
    const claims: JWTPayload = {
      iss: this.url,
      aud: this.client.id,
      sub,
      iat: now,
      exp: now + 300,
      ...forgery.claims,
    };
    for (const name of Object.keys(claims)) if (claims[name] === undefined) delete claims[name];
    const idToken = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: KEY_ID })
      .sign(forgery.foreignKey ? this.keys.foreign : this.keys.own);
    return [200, { access_token: accessToken, token_type: 'Bearer', id_token: idToken }];
  }
}
