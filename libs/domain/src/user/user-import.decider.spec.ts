import { spec } from '@tollgate/testing';
import type { ImportSource } from '../shared/import-source';
import { userDecider } from './user.decider';
import type { UserEvent, UserImported } from './user.events';

const source: ImportSource = {
  project: 'one-api',
  table: 'users',
  rowId: 1,
  importedAt: '2026-01-15T08:00:00.000Z',
};
const facts = (over: Partial<UserImported['data']> = {}): UserImported['data'] => ({
  userId: 1,
  username: 'root',
  displayName: 'Root',
  passwordHash: `$2a$04$${'a'.repeat(53)}`,
  role: 100,
  status: 1,
  group: 'default',
  email: '',
  emailVerified: false,
  identities: {},
  accessTokenHash: '',
  affCode: 'r00t',
  inviterId: 0,
  deleted: false,
  source,
  ...over,
});
const imported = (over: Partial<UserImported['data']> = {}): UserEvent => ({
  type: 'UserImported',
  data: facts(over),
});
const registered = (
  username: string,
  role: number,
  registration: 'bootstrap' | 'register',
): UserEvent => ({
  type: 'UserRegistered',
  data: {
    userId: 1,
    username,
    displayName: username,
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    role,
    group: 'default',
    email: '',
    inviterId: 0,
    affCode: 'b00t',
    source: registration,
  },
});

describe('userDecider ImportUser', () => {
  it('takes a fresh user over as UserImported, with everything its row held', () => {
    spec(userDecider).given([]).when({ type: 'ImportUser', user: facts() }).then([imported()]);
  });

  it('decides nothing for the same row again (a resumed or repeated import)', () => {
    spec(userDecider)
      .given([imported()])
      .when({ type: 'ImportUser', user: facts({ source: { ...source, importedAt: 'later' } }) })
      .then([]);
  });

  it('refuses an existing user that is not the untouched default root', () => {
    spec(userDecider)
      .given([registered('alice', 1, 'register')])
      .when({ type: 'ImportUser', user: facts() })
      .thenRejects('user.already_exists');
  });

  it('refuses the bootstrap root once its default password was changed', () => {
    spec(userDecider)
      .given([
        registered('root', 100, 'bootstrap'),
        {
          type: 'UserPasswordChanged',
          data: { userId: 1, passwordHash: '$argon2id$new', reason: 'setup' },
        },
      ])
      .when({ type: 'ImportUser', user: facts() })
      .thenRejects('user.already_exists');
  });

  it('replaces the untouched default root (a gateway started once before the import)', () => {
    spec(userDecider)
      .given([registered('root', 100, 'bootstrap')])
      .when({ type: 'ImportUser', user: facts() })
      .then([imported()]);
  });

  it('keeps a user deleted at the source, deleted', () => {
    spec(userDecider)
      .given([])
      .when({ type: 'ImportUser', user: facts({ deleted: true, status: 2 }) })
      .then([imported({ deleted: true, status: 2 })]);
  });

  it.each<[string, Partial<UserImported['data']>]>([
    ['a zero id', { userId: 0 }],
    ['a negative id', { userId: -3 }],
    ['an empty username', { username: '  ' }],
  ])('refuses %s', (_name, over) => {
    spec(userDecider)
      .given([])
      .when({ type: 'ImportUser', user: facts(over) })
      .thenRejects('common.invalid_params');
  });
});
