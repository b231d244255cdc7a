/** Where the OIDC flow goes: the browser to `authorization`, the server to the token and user info. */
export interface OidcEndpoints {
  readonly authorization: string;
  readonly token: string;
  readonly userInfo: string;
  /** The token endpoint takes only HTTP basic client authentication (from the discovery document). */
  readonly basicAuthOnly: boolean;
  /** The id_token's expected `iss` (discovery document only: new-api has no option for it). */
  readonly issuer: string;
  /** Where the provider's id_token signing keys are (discovery document only). */
  readonly jwksUri: string;
}

/** The endpoints an administrator can set (new-api's `oidc.*_endpoint` options). */
export type ConfiguredEndpoints = Pick<OidcEndpoints, 'authorization' | 'token' | 'userInfo'>;

const isHttpUrl = (value: unknown): value is string =>
  typeof value === 'string' && /^https?:\/\/\S+$/i.test(value);

/** The endpoints a discovery document names (only http(s) URLs are taken), or null. */
export function endpointsOfDiscovery(doc: unknown): OidcEndpoints | null {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return null;
  const record = doc as Record<string, unknown>;
  const url = (key: string) => (isHttpUrl(record[key]) ? record[key] : '');
  const methods = record['token_endpoint_auth_methods_supported'];
  const endpoints: OidcEndpoints = {
    authorization: url('authorization_endpoint'),
    token: url('token_endpoint'),
    userInfo: url('userinfo_endpoint'),
    basicAuthOnly:
      Array.isArray(methods) &&
      methods.includes('client_secret_basic') &&
      !methods.includes('client_secret_post'),
    issuer: url('issuer'),
    jwksUri: url('jwks_uri'),
  };
  return endpoints.authorization || endpoints.token || endpoints.userInfo ? endpoints : null;
}

/**
 * The configured endpoints (new-api's `oidc.*_endpoint` options) win; each one left empty comes from
 * the discovery document of `oidc.well_known`, when there is one.
 */
export function mergeEndpoints(
  configured: ConfiguredEndpoints,
  discovered: OidcEndpoints | null,
): OidcEndpoints {
  return {
    authorization: configured.authorization || discovered?.authorization || '',
    token: configured.token || discovered?.token || '',
    userInfo: configured.userInfo || discovered?.userInfo || '',
    basicAuthOnly: Boolean(discovered?.basicAuthOnly && !configured.token),
    issuer: discovered?.issuer ?? '',
    jwksUri: discovered?.jwksUri ?? '',
  };
}

/** Whether the configured endpoints leave one to the discovery document. */
export function needsDiscovery(configured: ConfiguredEndpoints): boolean {
  return !configured.authorization || !configured.token || !configured.userInfo;
}
