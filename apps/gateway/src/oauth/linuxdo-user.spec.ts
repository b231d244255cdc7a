import { linuxdoProfile } from './linuxdo-user';

describe('linuxdoProfile', () => {
  it('takes the id, the username as login and the name as display name', () => {
    expect(
      linuxdoProfile({
        id: 42,
        username: 'neo',
        name: 'Thomas',
        active: true,
        trust_level: 2,
        silenced: false,
      }),
    ).toEqual({ provider: 'linuxdo', externalId: '42', login: 'neo', displayName: 'Thomas' });
    expect(linuxdoProfile({ id: 7, username: 'trin', name: null })?.displayName).toBe('trin');
  });

  it('like new-api, refuses only a missing id (level, activity and silence are not checked)', () => {
    expect(linuxdoProfile({ id: 0, username: 'x' })).toBeNull();
    expect(linuxdoProfile({ id: '42', username: 'x' })).toBeNull();
    expect(linuxdoProfile({ username: 'x' })).toBeNull();
    expect(linuxdoProfile(null)).toBeNull();
    expect(linuxdoProfile([{ id: 1 }])).toBeNull();
    expect(
      linuxdoProfile({ id: 5, active: false, trust_level: 0, silenced: true })?.externalId,
    ).toBe('5');
  });
});
