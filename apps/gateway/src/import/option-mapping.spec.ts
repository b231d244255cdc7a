import { isSkipped } from './import-mapping';
import { mapOptionRow, optionApplyOrder, type OptionFacts } from './option-mapping';

const map = (key: string, value: string, project: 'one-api' | 'new-api' = 'one-api', id = 1) =>
  mapOptionRow(project, { key, value }, id);
const facts = (key: string, value: string, project: 'one-api' | 'new-api' = 'one-api') => {
  const mapped = map(key, value, project);
  if (isSkipped(mapped)) throw new Error(mapped.skipped.reason);
  return mapped;
};

describe('mapOptionRow', () => {
  it.each([
    ['OidcEnabled', 'oidc.enabled', 'true'],
    ['OidcClientId', 'oidc.client_id', 'abc'],
    ['OidcWellKnown', 'oidc.well_known', 'https://id.example.com/.well-known/openid-configuration'],
    ['OidcAuthorizationEndpoint', 'oidc.authorization_endpoint', 'https://id.example.com/auth'],
    ['OidcTokenEndpoint', 'oidc.token_endpoint', 'https://id.example.com/token'],
    ['OidcUserinfoEndpoint', 'oidc.user_info_endpoint', 'https://id.example.com/me'],
  ])('renames one-api %s to %s', (from, to, value) => {
    const m = facts(from, value);
    expect(m.option).toMatchObject({ sourceKey: from, key: to, secret: false });
    expect(m.items[0]).toMatchObject({ action: 'changed', field: from, reason: `renamed ${to}` });
  });

  it('a secret stays a secret (the writer seals it), its value never reported', () => {
    const m = facts('OidcClientSecret', 'very-secret');
    expect(m.option).toMatchObject({
      key: 'oidc.client_secret',
      secret: true,
      value: 'very-secret',
    });
    expect(JSON.stringify(m.items)).not.toContain('very-secret');
    expect(facts('SMTPToken', ' pw ').option).toMatchObject({ secret: true, value: 'pw' });
  });

  it('keeps common keys, normalized like an admin save', () => {
    expect(facts('QuotaPerUnit', '500000').option.value).toBe('500000');
    expect(facts('RegisterEnabled', 'false').option.value).toBe('false');
    expect(facts('ModelRatio', '{"gpt-4o": 1.25}').option.key).toBe('ModelRatio');
  });

  it.each(['Theme', 'ApproximateTokenEnabled', 'MessagePusherToken', 'LarkClientId'])(
    'skips %s: no counterpart, reported',
    (key) => {
      const m = map(key, 'x');
      expect(isSkipped(m) && m.skipped).toMatchObject({
        action: 'skipped',
        field: key,
        reason: 'no counterpart in Tollgate',
      });
    },
  );

  it('skips an invalid value with the rule it breaks', () => {
    const bool = map('RegisterEnabled', 'yes');
    expect(isSkipped(bool) && bool.skipped.reason).toMatch(/^invalid value: /);
    const json = map('ModelRatio', '{bad');
    expect(isSkipped(json) && json.skipped.action).toBe('skipped');
  });

  it('new-api keys are taken as they are (no Oidc renaming there)', () => {
    expect(facts('oidc.client_id', 'abc', 'new-api').option.key).toBe('oidc.client_id');
    expect(isSkipped(map('OidcClientId', 'abc', 'new-api'))).toBe(true);
  });

  it('applies ServerAddress first and switches last', () => {
    const o = (key: string, rowId: number): OptionFacts => ({
      rowId,
      key,
      sourceKey: key,
      value: '',
      secret: false,
    });
    const sorted = [o('GitHubOAuthEnabled', 1), o('GitHubClientId', 2), o('ServerAddress', 3)].sort(
      optionApplyOrder,
    );
    expect(sorted.map((x) => x.key)).toEqual([
      'ServerAddress',
      'GitHubClientId',
      'GitHubOAuthEnabled',
    ]);
  });
});
