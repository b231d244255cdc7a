import { Role } from '@tollgate/contracts';
import { spec } from '@tollgate/testing';
import type { CompleteSetup } from './user.commands';
import { userDecider } from './user.decider';
import type { RegistrationSource, UserEvent } from './user.events';
import { evolveUser, initialUserState } from './user.state';

const registered = (source: RegistrationSource, role = Role.Root): UserEvent => ({
  type: 'UserRegistered',
  data: {
    userId: 1,
    username: 'root',
    displayName: 'Root User',
    passwordHash: 'argon2id$default',
    role,
    group: 'default',
    email: '',
    inviterId: 0,
    affCode: 'AbCd',
    source,
  },
});
const passwordChanged = (reason: 'self' | 'admin' | 'reset' | 'setup'): UserEvent => ({
  type: 'UserPasswordChanged',
  data: { userId: 1, passwordHash: 'argon2id$new', reason },
});
const setup = (username: string): CompleteSetup => ({
  type: 'CompleteSetup',
  username,
  passwordHash: 'argon2id$new',
});

describe('userDecider: CompleteSetup (the first-run wizard)', () => {
  it('the bootstrap root has its default password until any password change', () => {
    const fresh = evolveUser(initialUserState, registered('bootstrap'));
    expect(fresh.defaultPassword).toBe(true);
    expect(evolveUser(fresh, passwordChanged('self')).defaultPassword).toBe(false);
    expect(evolveUser(initialUserState, registered('register')).defaultPassword).toBeFalsy();
  });

  it('renames root and replaces the default password in one decision', () => {
    spec(userDecider)
      .given([registered('bootstrap')])
      .when(setup('admin'))
      .then([
        { type: 'UserRenamed', data: { userId: 1, from: 'root', to: 'admin' } },
        passwordChanged('setup'),
      ]);
  });

  it('keeping the name changes only the password', () => {
    spec(userDecider)
      .given([registered('bootstrap')])
      .when(setup('root'))
      .then([passwordChanged('setup')]);
  });

  it('is refused once the default password was changed, by the wizard or otherwise', () => {
    for (const reason of ['setup', 'self', 'admin', 'reset'] as const)
      spec(userDecider)
        .given([registered('bootstrap'), passwordChanged(reason)])
        .when(setup('admin'))
        .thenRejects('setup.done');
  });

  it('is refused for anyone but a bootstrapped root, and for an invalid username', () => {
    spec(userDecider)
      .given([registered('admin')])
      .when(setup('admin'))
      .thenRejects('setup.done');
    spec(userDecider)
      .given([registered('bootstrap')])
      .when(setup('bad name!'))
      .thenRejects('user.username_invalid');
  });
});
