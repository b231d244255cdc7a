import { spec } from '@tollgate/testing';
import { optionsDecider } from './options.decider';
import type { OptionsEvent } from './options.events';

/**
 * The importer sets options through this decider like an admin's save (apps/gateway/src/import/
 * option-mapping.ts maps one-api's keys first): these are the cases an import meets.
 */
describe('optionsDecider, as the import uses it', () => {
  const sealed = { cipher: 'cipher-s', hash: 'hash-s' };

  it('a renamed one-api key lands under its new name', () => {
    spec(optionsDecider)
      .given([])
      .when({ type: 'ChangeOption', key: 'oidc.client_id', value: 'client-1' })
      .then([
        { type: 'OptionChanged', data: { key: 'oidc.client_id', value: 'client-1', previous: '' } },
      ]);
  });

  it('a secret stays sealed; the same secret again is "unchanged" (a repeated import)', () => {
    const set: OptionsEvent = {
      type: 'SecretOptionChanged',
      data: { key: 'oidc.client_secret', sealed },
    };
    spec(optionsDecider)
      .given([])
      .when({ type: 'ChangeSecretOption', key: 'oidc.client_secret', sealed })
      .then([set]);
    spec(optionsDecider)
      .given([set])
      .when({ type: 'ChangeSecretOption', key: 'oidc.client_secret', sealed })
      .thenRejects('option.unchanged');
  });

  it('a value Tollgate already holds is "unchanged"; an unknown key is refused', () => {
    spec(optionsDecider)
      .given([{ type: 'OptionChanged', data: { key: 'SystemName', value: 'Gate', previous: '' } }])
      .when({ type: 'ChangeOption', key: 'SystemName', value: 'Gate' })
      .thenRejects('option.unchanged');
    spec(optionsDecider)
      .given([])
      .when({ type: 'ChangeOption', key: 'Theme', value: 'berry' })
      .thenRejects('option.unknown_key', { key: 'Theme' });
  });

  it('a sign-in switch needs its settings first (why switches are applied last)', () => {
    spec(optionsDecider)
      .given([])
      .when({ type: 'ChangeOption', key: 'GitHubOAuthEnabled', value: 'true' })
      .thenRejects('option.github_oauth_incomplete');
    spec(optionsDecider)
      .given([
        { type: 'OptionChanged', data: { key: 'GitHubClientId', value: 'id', previous: '' } },
        { type: 'SecretOptionChanged', data: { key: 'GitHubClientSecret', sealed } },
      ])
      .when({ type: 'ChangeOption', key: 'GitHubOAuthEnabled', value: 'true' })
      .then([
        {
          type: 'OptionChanged',
          data: { key: 'GitHubOAuthEnabled', value: 'true', previous: 'false' },
        },
      ]);
  });
});
