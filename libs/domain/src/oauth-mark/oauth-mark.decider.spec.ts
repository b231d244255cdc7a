import { FIXED_NOW, spec } from '@tollgate/testing';
import { oauthMarkDecider, type OAuthMarkEvent } from './oauth-mark.decider';

const NOW = FIXED_NOW.getTime();
const spent = (expiresAt: number): OAuthMarkEvent => ({
  type: 'OAuthValueSpent',
  data: { scope: 'github', expiresAt },
});
const spend = (expiresAt: number) =>
  ({ type: 'SpendOAuthValue', scope: 'github', expiresAt }) as const;

describe('oauthMarkDecider', () => {
  it('spends a value the first time', () => {
    spec(oauthMarkDecider)
      .given([])
      .when(spend(NOW + 1000))
      .then([spent(NOW + 1000)]);
  });

  it('refuses a replay (no event) until the mark expires', () => {
    spec(oauthMarkDecider)
      .given([spent(NOW + 1)])
      .when(spend(NOW + 1000))
      .then([]);
  });

  it('forgets an expired mark, as the provider voided its code by then', () => {
    spec(oauthMarkDecider)
      .given([spent(NOW)])
      .when(spend(NOW + 1000))
      .then([spent(NOW + 1000)]);
  });
});
