/** Where new-api's OIDC flow goes: the browser to `authorization`, the server to the other two. */
export interface OidcEndpoints {
  readonly authorization: string;
  readonly token: string;
  readonly userInfo: string;
  /** The token endpoint takes only HTTP basic client authentication (from the discovery document). */
  readonly basicAuthOnly: boolean;
}

export const NO_ENDPOINTS: OidcEndpoints = {
  authorization: '',
  token: '',
  userInfo: '',
  basicAuthOnly: false,
};

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
  };
  return endpoints.authorization || endpoints.token || endpoints.userInfo ? endpoints : null;
}

/**
 * The configured endpoints (new-api's `oidc.*_endpoint` options) win; each one left empty comes from
 * the discovery document of `oidc.well_known`, when there is one.
 */
export function mergeEndpoints(
  configured: Omit<OidcEndpoints, 'basicAuthOnly'>,
  discovered: OidcEndpoints | null,
): OidcEndpoints {
  return {
    authorization: configured.authorization || discovered?.authorization || '',
    token: configured.token || discovered?.token || '',
    userInfo: configured.userInfo || discovered?.userInfo || '',
    basicAuthOnly: Boolean(discovered?.basicAuthOnly && !configured.token),
  };
}

/** Whether merging needs the discovery document at all. */
export function needsDiscovery(configured: Omit<OidcEndpoints, 'basicAuthOnly'>): boolean {
  return !configured.authorization || !configured.token || !configured.userInfo;
}
