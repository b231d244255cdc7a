import { endpointsOfDiscovery, mergeEndpoints, needsDiscovery } from './oidc-endpoints';

describe('OpenID Connect endpoints', () => {
  const doc = {
    issuer: 'https://sso.example.com',
    authorization_endpoint: 'https://sso.example.com/auth',
    token_endpoint: 'https://sso.example.com/token',
    userinfo_endpoint: 'https://sso.example.com/me',
    jwks_uri: 'https://sso.example.com/jwks',
    token_endpoint_auth_methods_supported: ['client_secret_basic'],
  };
  const fromDocument = {
    issuer: 'https://sso.example.com',
    jwksUri: 'https://sso.example.com/jwks',
  };

  it('reads the endpoints, the client authentication, the issuer and the keys from a document', () => {
    expect(endpointsOfDiscovery(doc)).toEqual({
      authorization: 'https://sso.example.com/auth',
      token: 'https://sso.example.com/token',
      userInfo: 'https://sso.example.com/me',
      basicAuthOnly: true,
      ...fromDocument,
    });
    expect(
      endpointsOfDiscovery({
        ...doc,
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      })?.basicAuthOnly,
    ).toBe(false);
  });

  it('ignores what is not an http(s) URL; a document naming none is no document', () => {
    expect(
      endpointsOfDiscovery({ ...doc, userinfo_endpoint: 'javascript:alert(1)' })?.userInfo,
    ).toBe('');
    expect(endpointsOfDiscovery({ ...doc, jwks_uri: 'file:///etc/keys' })?.jwksUri).toBe('');
    expect(endpointsOfDiscovery({ issuer: 'x' })).toBeNull();
    expect(endpointsOfDiscovery([doc])).toBeNull();
    expect(endpointsOfDiscovery('text')).toBeNull();
  });

  it('configured endpoints win; empty ones, the issuer and the keys come from the document', () => {
    const configured = { authorization: 'https://other/auth', token: '', userInfo: '' };
    expect(needsDiscovery(configured)).toBe(true);
    expect(mergeEndpoints(configured, endpointsOfDiscovery(doc))).toEqual({
      authorization: 'https://other/auth',
      token: 'https://sso.example.com/token',
      userInfo: 'https://sso.example.com/me',
      basicAuthOnly: true,
      ...fromDocument,
    });
    const all = { authorization: 'https://a', token: 'https://t', userInfo: 'https://u' };
    expect(needsDiscovery(all)).toBe(false);
    // A token endpoint of one's own: new-api's client authentication (in the form).
    expect(mergeEndpoints(all, endpointsOfDiscovery(doc))).toEqual({
      ...all,
      basicAuthOnly: false,
      ...fromDocument,
    });
    // No document: nothing to check an id_token with.
    expect(mergeEndpoints(all, null)).toMatchObject({ issuer: '', jwksUri: '' });
    expect(mergeEndpoints(configured, null).token).toBe('');
  });
});
