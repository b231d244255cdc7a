// A real OpenID provider process for the OpenID Connect e2e test: the `oidc-provider` package with
// its development login and consent pages (devInteractions), one confidential client whose
// redirect_uri is the gateway's /oauth/oidc. Usage:
//   OIDC_CLIENT_SECRET=... node oidc-provider.mjs <client id> <redirect uri>
// Prints {"url": "http://127.0.0.1:N"} once listening. Whatever login is typed on the login page
// becomes the subject; its email is <login>@example.test, except for the login "no-email" (a user
// info without email, which new-api refuses). The secret comes from the environment, not argv (ps).
import { createServer } from 'node:net';
import Provider from 'oidc-provider';

const [clientId, redirectUri] = process.argv.slice(2);
const clientSecret = process.env.OIDC_CLIENT_SECRET ?? '';
if (!clientId || !redirectUri || !clientSecret)
  throw new Error(
    'usage: OIDC_CLIENT_SECRET=... node oidc-provider.mjs <client id> <redirect uri>',
  );

async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const port = await freePort();
const issuer = `http://127.0.0.1:${port}`;
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      // new-api sends the client credentials in the form.
      token_endpoint_auth_method: 'client_secret_post',
    },
  ],
  claims: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['name', 'preferred_username'],
  },
  // new-api's console cannot add PKCE to the URL it builds; a confidential client need not.
  pkce: { required: () => false },
  features: { devInteractions: { enabled: true } },
  cookies: { keys: ['oidc-provider-test-cookie-key'] },
  async findAccount(_ctx, accountId) {
    return {
      accountId,
      async claims() {
        const claims = {
          sub: accountId,
          name: `Name of ${accountId}`,
          preferred_username: accountId,
        };
        return accountId === 'no-email'
          ? claims
          : { ...claims, email: `${accountId}@example.test`, email_verified: true };
      },
    };
  },
});

const server = provider.listen(port, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: issuer })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
