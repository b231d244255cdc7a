import { createHash, createHmac } from 'node:crypto';

/** What Tollgate's own OIDC sign-in adds to the state: PKCE (RFC 7636, S256) and a nonce. */
export interface OidcFlowSecrets {
  /** Sent with the code exchange only; the provider saw its challenge in the authorization URL. */
  readonly verifier: string;
  /** BASE64URL(SHA-256(verifier)): `code_challenge` with `code_challenge_method=S256`. */
  readonly challenge: string;
  /** In the authorization URL; the id_token must carry it back. */
  readonly nonce: string;
}

/** RFC 7636's S256 code challenge of a verifier. */
export function pkceS256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/**
 * The verifier and nonce of a flow, derived from the server secret and the flow's state rather
 * than stored: every gateway process sharing SESSION_SECRET finds them again at the callback, as it
 * checks the state cookie, and nothing secret travels to the browser. The state is random and used
 * once, so each flow has its own; without the secret, the public state tells nothing about them.
 * The verifier is 43 base64url characters (32 bytes), RFC 7636's minimum length and entropy.
 */
export function oidcFlowSecrets(serverSecret: string, state: string): OidcFlowSecrets {
  const derive = (purpose: string) =>
    createHmac('sha256', `oidc-flow-v1:${serverSecret}`)
      .update(`${purpose}\n${state}`)
      .digest('base64url');
  const verifier = derive('pkce-verifier');
  return { verifier, challenge: pkceS256(verifier), nonce: derive('nonce') };
}
