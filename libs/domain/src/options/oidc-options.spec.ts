import { spec } from '@tollgate/testing';
import { isSecretOption, OPTION_CATALOGUE } from './option-catalogue';
import { optionsDecider } from './options.decider';

describe('options: the OpenID Connect provider', () => {
  const change = (key: string, value: string) => ({ type: 'ChangeOption' as const, key, value });

  it('declares its keys; the client secret is a secret', () => {
    expect(OPTION_CATALOGUE['OidcEnabled']?.defaultValue).toBe('false');
    expect(OPTION_CATALOGUE['OidcDiscoveryUrl']?.kind).toBe('address');
    expect(isSecretOption('OidcClientSecret')).toBe(true);
    expect(isSecretOption('OidcClientId')).toBe(false);
  });

  it('cannot be enabled before discovery URL, client id and secret are set', () => {
    spec(optionsDecider)
      .given([])
      .when(change('OidcEnabled', 'true'))
      .thenRejects('oauth.oidc_incomplete');
    spec(optionsDecider)
      .given([
        {
          type: 'OptionChanged',
          data: { key: 'OidcDiscoveryUrl', value: 'https://sso.example.com', previous: '' },
        },
        { type: 'OptionChanged', data: { key: 'OidcClientId', value: 'client', previous: '' } },
      ])
      .when(change('OidcEnabled', 'true'))
      .thenRejects('oauth.oidc_incomplete');
    spec(optionsDecider)
      .given([
        {
          type: 'OptionChanged',
          data: { key: 'OidcDiscoveryUrl', value: 'https://sso.example.com', previous: '' },
        },
        { type: 'OptionChanged', data: { key: 'OidcClientId', value: 'client', previous: '' } },
        {
          type: 'SecretOptionChanged',
          data: { key: 'OidcClientSecret', sealed: { cipher: 'c', hash: 'h' } },
        },
      ])
      .when(change('OidcEnabled', 'true'))
      .then([
        { type: 'OptionChanged', data: { key: 'OidcEnabled', value: 'true', previous: 'false' } },
      ]);
  });

  it('validates the discovery URL as an address (trailing slash dropped)', () => {
    spec(optionsDecider)
      .given([])
      .when(change('OidcDiscoveryUrl', 'https://sso.example.com/realms/main/'))
      .then([
        {
          type: 'OptionChanged',
          data: {
            key: 'OidcDiscoveryUrl',
            value: 'https://sso.example.com/realms/main',
            previous: '',
          },
        },
      ]);
    spec(optionsDecider)
      .given([])
      .when(change('OidcDiscoveryUrl', 'not a url'))
      .thenRejects('option.invalid_address', { key: 'OidcDiscoveryUrl' });
  });
});
