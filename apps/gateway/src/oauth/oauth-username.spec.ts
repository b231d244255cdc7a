import { assertValidUsername } from '@tollgate/domain';
import { displayNameFrom, usernameCandidates } from './oauth-username';

describe('usernameCandidates', () => {
  it('starts with the login, then suffixed variants, then provider names; all valid', () => {
    const names = usernameCandidates('github', 'octocat');
    expect(names[0]).toBe('octocat');
    expect(names.slice(1, 6).every((n) => /^octocat_\d{4}$/.test(n))).toBe(true);
    expect(names.slice(6).every((n) => /^github_\d{8}$/.test(n))).toBe(true);
    for (const name of names) expect(() => assertValidUsername(name)).not.toThrow();
  });

  it('fits long or foreign logins into the username rules', () => {
    const long = usernameCandidates('oidc', 'a-very-long-login-name-from-sso');
    expect(long[0]).toBe('a-very-long-login-na');
    expect(long[1]).toMatch(/^a-very-long-log_\d{4}$/);
    for (const name of long) expect(() => assertValidUsername(name)).not.toThrow();
    expect(usernameCandidates('oidc', 'Ｊｏｈｎ Doe@x')[0]).toBe('JohnDoex');
  });

  it('without a usable login offers provider names only', () => {
    const names = usernameCandidates('wechat', '微信');
    expect(names.every((n) => /^wechat_\d{8}$/.test(n))).toBe(true);
    expect(names.length).toBeGreaterThan(1);
  });
});

describe('displayNameFrom', () => {
  it('keeps a valid name, cuts a long one and drops invisible characters', () => {
    expect(displayNameFrom('The Octocat')).toBe('The Octocat');
    expect(displayNameFrom('A very long display name indeed')).toBe('A very long display');
    expect(displayNameFrom('Ev\u202Eil\u200B')).toBe('Evil');
    expect(displayNameFrom('   ')).toBe('');
  });
});
