import { endpointsOfDiscovery, mergeEndpoints, needsDiscovery } from './oidc-endpoints';

describe('OpenID Connect endpoints', () => {
  const doc = {
    issuer: 'https://sso.example.com',
    authorization_endpoint: 'https://sso.example.com/auth',
    token_endpoint: 'https://sso.example.com/token',
    userinfo_endpoint: 'https://sso.example.com/me',
    token_endpoint_auth_methods_supported: ['client_secret_basic'],
  };

  it('reads the three endpoints and the client authentication from a discovery document', () => {
    expect(endpointsOfDiscovery(doc)).toEqual({
      authorization: 'https://sso.example.com/auth',
      token: 'https://sso.example.com/token',
      userInfo: 'https://sso.example.com/me',
      basicAuthOnly: true,
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
    expect(endpointsOfDiscovery({ issuer: 'x' })).toBeNull();
    expect(endpointsOfDiscovery([doc])).toBeNull();
    expect(endpointsOfDiscovery('text')).toBeNull();
  });

  it('configured endpoints win; empty ones come from the document', () => {
    const configured = { authorization: 'https://other/auth', token: '', userInfo: '' };
    expect(needsDiscovery(configured)).toBe(true);
    expect(mergeEndpoints(configured, endpointsOfDiscovery(doc))).toEqual({
      authorization: 'https://other/auth',
      token: 'https://sso.example.com/token',
      userInfo: 'https://sso.example.com/me',
      basicAuthOnly: true,
    });
    const all = { authorization: 'https://a', token: 'https://t', userInfo: 'https://u' };
    expect(needsDiscovery(all)).toBe(false);
    // A token endpoint of one's own: new-api's client authentication (in the form).
    expect(mergeEndpoints(all, endpointsOfDiscovery(doc))).toEqual({
      ...all,
      basicAuthOnly: false,
    });
    expect(mergeEndpoints(configured, null).token).toBe('');
  });
});
