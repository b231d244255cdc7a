import { spec } from '@tollgate/testing';
import { currentOptionKey, upcastOptionEvent } from './legacy-option-keys';
import { isSecretOption, OPTION_CATALOGUE } from './option-catalogue';
import { evolveOptions, initialOptionsState, optionsDecider } from './options.decider';
import type { OptionsEvent } from './options.events';

const changed = (key: string, value: string, previous = ''): OptionsEvent => ({
  type: 'OptionChanged',
  data: { key, value, previous },
});
const secretSet = (key: string): OptionsEvent => ({
  type: 'SecretOptionChanged',
  data: { key, sealed: { cipher: 'c', hash: `h-${key}` } },
});
const change = (key: string, value: string) => ({ type: 'ChangeOption' as const, key, value });

describe("options: OpenID Connect under new-api's oidc.* keys, and Linux DO", () => {
  it('declares the keys; the client secrets are secrets', () => {
    expect(OPTION_CATALOGUE['oidc.enabled']?.defaultValue).toBe('false');
    for (const key of [
      'oidc.well_known',
      'oidc.authorization_endpoint',
      'oidc.token_endpoint',
      'oidc.user_info_endpoint',
    ])
      expect(OPTION_CATALOGUE[key]?.kind).toBe('address');
    expect(isSecretOption('oidc.client_secret')).toBe(true);
    expect(isSecretOption('oidc.client_id')).toBe(false);
    expect(isSecretOption('LinuxDOClientSecret')).toBe(true);
    expect(OPTION_CATALOGUE['LinuxDOOAuthEnabled']?.defaultValue).toBe('false');
    for (const old of ['OidcEnabled', 'OidcDiscoveryUrl', 'OidcDisplayName'])
      expect(OPTION_CATALOGUE[old]).toBeUndefined();
  });

  it('oidc.enabled needs the client id, the secret and the well-known document', () => {
    const base = [changed('oidc.client_id', 'client'), secretSet('oidc.client_secret')];
    spec(optionsDecider)
      .given([])
      .when(change('oidc.enabled', 'true'))
      .thenRejects('oauth.oidc_incomplete');
    // The endpoints alone are not enough: the id_token's issuer and keys are in the document only.
    spec(optionsDecider)
      .given([
        ...base,
        changed('oidc.authorization_endpoint', 'https://sso.example.com/auth'),
        changed('oidc.token_endpoint', 'https://sso.example.com/token'),
        changed('oidc.user_info_endpoint', 'https://sso.example.com/me'),
      ])
      .when(change('oidc.enabled', 'true'))
      .thenRejects('oauth.oidc_incomplete');
    const wellKnown = changed(
      'oidc.well_known',
      'https://sso.example.com/.well-known/openid-configuration',
    );
    spec(optionsDecider)
      .given([changed('oidc.client_id', 'client'), wellKnown])
      .when(change('oidc.enabled', 'true'))
      .thenRejects('oauth.oidc_incomplete');
    spec(optionsDecider)
      .given([...base, wellKnown])
      .when(change('oidc.enabled', 'true'))
      .then([changed('oidc.enabled', 'true', 'false')]);
  });

  it('LinuxDOOAuthEnabled needs the client id and secret', () => {
    spec(optionsDecider)
      .given([changed('LinuxDOClientId', 'ld')])
      .when(change('LinuxDOOAuthEnabled', 'true'))
      .thenRejects('option.linuxdo_incomplete');
    spec(optionsDecider)
      .given([changed('LinuxDOClientId', 'ld'), secretSet('LinuxDOClientSecret')])
      .when(change('LinuxDOOAuthEnabled', 'true'))
      .then([changed('LinuxDOOAuthEnabled', 'true', 'false')]);
  });
});

describe("upcastOptionEvent: Tollgate's first OpenID Connect keys", () => {
  it('renames the old keys; the discovery base becomes the well-known document', () => {
    expect(upcastOptionEvent(changed('OidcEnabled', 'true', 'false'))).toEqual(
      changed('oidc.enabled', 'true', 'false'),
    );
    expect(upcastOptionEvent(changed('OidcClientId', 'client'))).toEqual(
      changed('oidc.client_id', 'client'),
    );
    expect(
      upcastOptionEvent(changed('OidcDiscoveryUrl', 'https://sso.example.com/realms/x')),
    ).toEqual(
      changed(
        'oidc.well_known',
        'https://sso.example.com/realms/x/.well-known/openid-configuration',
      ),
    );
    const doc = 'https://sso.example.com/.well-known/openid-configuration';
    expect(upcastOptionEvent(changed('OidcDiscoveryUrl', doc))).toEqual(
      changed('oidc.well_known', doc),
    );
    expect(upcastOptionEvent(secretSet('OidcClientSecret'))).toEqual({
      type: 'SecretOptionChanged',
      data: { key: 'oidc.client_secret', sealed: { cipher: 'c', hash: 'h-OidcClientSecret' } },
    });
  });

  it('drops the button label (new-api has none) and leaves every other key alone', () => {
    expect(upcastOptionEvent(changed('OidcDisplayName', 'SSO'))).toBeNull();
    const other = changed('SystemName', 'Gate');
    expect(upcastOptionEvent(other)).toBe(other);
    expect(currentOptionKey('OidcClientSecret')).toBe('oidc.client_secret');
    expect(currentOptionKey('OidcDisplayName')).toBeNull();
    expect(currentOptionKey('SystemName')).toBe('SystemName');
  });

  it('options written under the old keys stay configured, and enabled, after the rename', () => {
    const history = [
      changed('OidcDiscoveryUrl', 'https://sso.example.com'),
      changed('OidcClientId', 'client'),
      secretSet('OidcClientSecret'),
      changed('OidcDisplayName', 'Company SSO', 'OpenID Connect'),
      changed('OidcEnabled', 'true', 'false'),
    ];
    const state = history.reduce(evolveOptions, initialOptionsState);
    expect(state.values['oidc.enabled']).toBe('true');
    expect(state.values['oidc.client_id']).toBe('client');
    expect(state.values['oidc.well_known']).toBe(
      'https://sso.example.com/.well-known/openid-configuration',
    );
    expect(state.secretHashes['oidc.client_secret']).toBe('h-OidcClientSecret');
    expect(state.values['OidcDisplayName']).toBeUndefined();
    // Turning it off is a change of the new key, with the upcast value as "previous".
    spec(optionsDecider)
      .given(history)
      .when(change('oidc.enabled', 'false'))
      .then([changed('oidc.enabled', 'false', 'true')]);
  });
});
