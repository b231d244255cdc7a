import { oidcFlowSecrets, pkceS256 } from './oidc-flow-secrets';

describe('OIDC flow secrets (PKCE S256 and nonce)', () => {
  it("computes RFC 7636's S256 challenge (the RFC's own example)", () => {
    expect(pkceS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('finds the same verifier and nonce again for a state, as another process would', () => {
    const first = oidcFlowSecrets('server-secret', 'state-1');
    expect(oidcFlowSecrets('server-secret', 'state-1')).toEqual(first);
    expect(first.challenge).toBe(pkceS256(first.verifier));
    // RFC 7636: 43 to 128 unreserved characters.
    expect(first.verifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
    expect(first.nonce).not.toBe(first.verifier);
  });

  it('differs per state and per server secret, and never shows the secret or the state', () => {
    const a = oidcFlowSecrets('server-secret', 'state-1');
    const b = oidcFlowSecrets('server-secret', 'state-2');
    const c = oidcFlowSecrets('other-secret', 'state-1');
    expect(new Set([a.verifier, b.verifier, c.verifier]).size).toBe(3);
    expect(new Set([a.nonce, b.nonce, c.nonce]).size).toBe(3);
    expect(JSON.stringify(a)).not.toMatch(/server-secret|state-1/);
  });
});
