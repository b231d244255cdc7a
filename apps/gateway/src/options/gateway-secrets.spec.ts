import { GatewaySecrets } from './gateway-secrets';
import type { OptionsCache } from './options.cache';

describe('GatewaySecrets', () => {
  const values: Record<string, string> = {
    SMTPToken: 'smtp-password-123',
    GitHubClientSecret: 'gh-client-secret-456',
    StripeApiSecret: 'sk_live_stripe_789012',
    SystemName: 'Tollgate Gateway',
  };
  const options = { get: (key: string) => values[key] ?? '' } as unknown as OptionsCache;
  const secrets = new GatewaySecrets(options);

  it('masks the value of every secret option, not the other options', () => {
    expect(
      secrets.scrub(
        'bad_verification_code for gh-client-secret-456 (smtp-password-123, sk_live_stripe_789012) at Tollgate Gateway',
      ),
    ).toBe('bad_verification_code for *** (***, ***) at Tollgate Gateway');
  });

  it('follows a secret that changes', () => {
    expect(secrets.scrub('smtp-password-123')).toBe('***');
    values['SMTPToken'] = 'rotated-password-999';
    expect(secrets.scrub('smtp-password-123 / rotated-password-999')).toBe(
      'smtp-password-123 / ***',
    );
  });
});
