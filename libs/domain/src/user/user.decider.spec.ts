import { Role, UserStatus, type ManageAction } from '@tollgate/contracts';
import { spec } from '@tollgate/testing';
import type { RegisterUser } from './user.commands';
import { userDecider } from './user.decider';
import type { UserEvent, UserRegistered } from './user.events';
import type { ActorRef } from './user.rules';

const USER_ID = 7;

function registration(overrides: Partial<UserRegistered['data']> = {}): UserRegistered {
  return {
    type: 'UserRegistered',
    data: {
      userId: USER_ID,
      username: 'alice',
      displayName: 'Alice',
      passwordHash: 'argon2id$old',
      role: Role.Common,
      group: 'default',
      email: 'alice@example.com',
      inviterId: 0,
      affCode: 'AbCd',
      source: 'register',
      ...overrides,
    },
  };
}

const registered = (role: number = Role.Common): UserEvent => registration({ role });
const deregistered: UserEvent = { type: 'UserDeregistered', data: { userId: USER_ID, by: 'self' } };
const disabled: UserEvent = {
  type: 'UserStatusChanged',
  data: { userId: USER_ID, from: UserStatus.Enabled, to: UserStatus.Disabled },
};

const ROOT: ActorRef = { id: 1, role: Role.Root };
const ADMIN: ActorRef = { id: 2, role: Role.Admin };
const COMMON: ActorRef = { id: 3, role: Role.Common };

const registerCommand = (overrides: Partial<RegisterUser> = {}): RegisterUser => ({
  type: 'RegisterUser',
  userId: USER_ID,
  username: 'alice',
  displayName: 'Alice',
  passwordHash: 'argon2id$hash',
  role: Role.Common,
  group: 'default',
  email: 'alice@example.com',
  inviterId: 3,
  affCode: 'XyZw',
  source: 'register',
  ...overrides,
});

const manage = (action: ManageAction, actor: ActorRef = ROOT) => ({
  type: 'ManageUser' as const,
  action,
  actor,
});

describe('userDecider', () => {
  describe('RegisterUser', () => {
    it('records the registration with every field of the command', () => {
      spec(userDecider)
        .given([])
        .when(registerCommand())
        .then([
          {
            type: 'UserRegistered',
            data: {
              userId: USER_ID,
              username: 'alice',
              displayName: 'Alice',
              passwordHash: 'argon2id$hash',
              role: Role.Common,
              group: 'default',
              email: 'alice@example.com',
              inviterId: 3,
              affCode: 'XyZw',
              source: 'register',
            },
          },
        ]);
    });

    it('accepts a username and a display name of exactly 20 characters', () => {
      const name = 'a'.repeat(20);
      spec(userDecider)
        .given([])
        .when(registerCommand({ username: name, displayName: name, source: 'admin' }))
        .then([
          registration({
            username: name,
            displayName: name,
            passwordHash: 'argon2id$hash',
            inviterId: 3,
            affCode: 'XyZw',
            source: 'admin',
          }),
        ]);
    });

    it('records the bootstrap root as root', () => {
      spec(userDecider)
        .given([])
        .when(
          registerCommand({
            username: 'root',
            displayName: 'Root User',
            role: Role.Root,
            source: 'bootstrap',
            inviterId: 0,
          }),
        )
        .then([
          registration({
            username: 'root',
            displayName: 'Root User',
            role: Role.Root,
            source: 'bootstrap',
            inviterId: 0,
            passwordHash: 'argon2id$hash',
            affCode: 'XyZw',
          }),
        ]);
    });

    it('rejects a user that already exists', () => {
      spec(userDecider)
        .given([registered()])
        .when(registerCommand())
        .thenRejects('user.already_exists');
    });

    it('rejects registering again over a deregistered user', () => {
      spec(userDecider)
        .given([registered(), deregistered])
        .when(registerCommand())
        .thenRejects('user.already_exists');
    });

    it('rejects an empty username', () => {
      spec(userDecider)
        .given([])
        .when(registerCommand({ username: '' }))
        .thenRejects('user.username_required');
    });

    it('rejects a blank username', () => {
      spec(userDecider)
        .given([])
        .when(registerCommand({ username: '   ' }))
        .thenRejects('user.username_required');
    });

    it('rejects a username longer than 20 characters', () => {
      spec(userDecider)
        .given([])
        .when(registerCommand({ username: 'a'.repeat(21) }))
        .thenRejects('user.username_too_long', { max: 20 });
    });

    it('rejects a username containing whitespace', () => {
      spec(userDecider)
        .given([])
        .when(registerCommand({ username: 'al ice' }))
        .thenRejects('user.username_invalid');
      spec(userDecider)
        .given([])
        .when(registerCommand({ username: 'alice\t' }))
        .thenRejects('user.username_invalid');
    });

    it('rejects a display name longer than 20 characters', () => {
      spec(userDecider)
        .given([])
        .when(registerCommand({ displayName: 'A'.repeat(21) }))
        .thenRejects('user.display_name_too_long', { max: 20 });
    });
  });

  describe('ChangePassword', () => {
    it('lets users change their own password', () => {
      spec(userDecider)
        .given([registered()])
        .when({ type: 'ChangePassword', passwordHash: 'argon2id$new', reason: 'self' })
        .then([
          {
            type: 'UserPasswordChanged',
            data: { userId: USER_ID, passwordHash: 'argon2id$new', reason: 'self' },
          },
        ]);
    });

    it('records a password reset', () => {
      spec(userDecider)
        .given([registered(Role.Admin)])
        .when({ type: 'ChangePassword', passwordHash: 'argon2id$reset', reason: 'reset' })
        .then([
          {
            type: 'UserPasswordChanged',
            data: { userId: USER_ID, passwordHash: 'argon2id$reset', reason: 'reset' },
          },
        ]);
    });

    it('lets an administrator change the password of a common user', () => {
      spec(userDecider)
        .given([registered()])
        .when({
          type: 'ChangePassword',
          passwordHash: 'argon2id$new',
          reason: 'admin',
          actor: ADMIN,
        })
        .then([
          {
            type: 'UserPasswordChanged',
            data: { userId: USER_ID, passwordHash: 'argon2id$new', reason: 'admin' },
          },
        ]);
    });

    it('forbids an administrator from changing the password of another administrator', () => {
      spec(userDecider)
        .given([registered(Role.Admin)])
        .when({
          type: 'ChangePassword',
          passwordHash: 'argon2id$new',
          reason: 'admin',
          actor: ADMIN,
        })
        .thenRejects('user.forbidden_same_or_higher_role');
    });

    it('forbids an administrator from changing the password of root', () => {
      spec(userDecider)
        .given([registered(Role.Root)])
        .when({
          type: 'ChangePassword',
          passwordHash: 'argon2id$new',
          reason: 'admin',
          actor: ADMIN,
        })
        .thenRejects('user.forbidden_same_or_higher_role');
    });

    it('lets root change the password of an administrator', () => {
      spec(userDecider)
        .given([registered(Role.Admin)])
        .when({
          type: 'ChangePassword',
          passwordHash: 'argon2id$new',
          reason: 'admin',
          actor: ROOT,
        })
        .then([
          {
            type: 'UserPasswordChanged',
            data: { userId: USER_ID, passwordHash: 'argon2id$new', reason: 'admin' },
          },
        ]);
    });

    it('forbids a common user acting as an administrator', () => {
      spec(userDecider)
        .given([registered()])
        .when({
          type: 'ChangePassword',
          passwordHash: 'argon2id$new',
          reason: 'admin',
          actor: COMMON,
        })
        .thenRejects('user.forbidden_same_or_higher_role');
    });

    it('rejects a missing user', () => {
      spec(userDecider)
        .given([])
        .when({ type: 'ChangePassword', passwordHash: 'argon2id$new', reason: 'self' })
        .thenRejects('user.not_found');
    });

    it('rejects a deregistered user', () => {
      spec(userDecider)
        .given([registered(), deregistered])
        .when({ type: 'ChangePassword', passwordHash: 'argon2id$new', reason: 'reset' })
        .thenRejects('user.deregistered');
    });
  });

  describe('UpdateProfile', () => {
    it('records only the display name when only it changed', () => {
      spec(userDecider)
        .given([registered()])
        .when({ type: 'UpdateProfile', displayName: 'Alice B', remark: '' })
        .then([{ type: 'UserProfileUpdated', data: { userId: USER_ID, displayName: 'Alice B' } }]);
    });

    it('records only the remark when only it changed', () => {
      spec(userDecider)
        .given([registered()])
        .when({ type: 'UpdateProfile', displayName: 'Alice', remark: 'VIP customer', actor: ADMIN })
        .then([{ type: 'UserProfileUpdated', data: { userId: USER_ID, remark: 'VIP customer' } }]);
    });

    it('records both fields when both changed', () => {
      spec(userDecider)
        .given([registered()])
        .when({ type: 'UpdateProfile', displayName: 'Al', remark: 'note' })
        .then([
          {
            type: 'UserProfileUpdated',
            data: { userId: USER_ID, displayName: 'Al', remark: 'note' },
          },
        ]);
    });

    it('compares against the profile as evolved by earlier updates', () => {
      const updated: UserEvent = {
        type: 'UserProfileUpdated',
        data: { userId: USER_ID, displayName: 'Al', remark: 'note' },
      };
      spec(userDecider)
        .given([registered(), updated])
        .when({ type: 'UpdateProfile', displayName: 'Al', remark: 'note' })
        .then([]);
      spec(userDecider)
        .given([registered(), updated])
        .when({ type: 'UpdateProfile', displayName: 'Alice', remark: 'note' })
        .then([{ type: 'UserProfileUpdated', data: { userId: USER_ID, displayName: 'Alice' } }]);
    });

    it('produces no events when nothing changed', () => {
      spec(userDecider)
        .given([registered()])
        .when({ type: 'UpdateProfile', displayName: 'Alice' })
        .then([]);
      spec(userDecider).given([registered()]).when({ type: 'UpdateProfile' }).then([]);
    });

    it('rejects a display name longer than 20 characters', () => {
      spec(userDecider)
        .given([registered()])
        .when({ type: 'UpdateProfile', displayName: 'x'.repeat(21) })
        .thenRejects('user.display_name_too_long', { max: 20 });
    });

    it('forbids an administrator from updating an equal role', () => {
      spec(userDecider)
        .given([registered(Role.Admin)])
        .when({ type: 'UpdateProfile', remark: 'x', actor: ADMIN })
        .thenRejects('user.forbidden_same_or_higher_role');
    });

    it('lets root update an administrator', () => {
      spec(userDecider)
        .given([registered(Role.Admin)])
        .when({ type: 'UpdateProfile', remark: 'x', actor: ROOT })
        .then([{ type: 'UserProfileUpdated', data: { userId: USER_ID, remark: 'x' } }]);
    });

    it('rejects a missing or deregistered user', () => {
      spec(userDecider)
        .given([])
        .when({ type: 'UpdateProfile', remark: 'x' })
        .thenRejects('user.not_found');
      spec(userDecider)
        .given([registered(), deregistered])
        .when({ type: 'UpdateProfile', remark: 'x' })
        .thenRejects('user.deregistered');
    });
  });

  describe('RenameUser', () => {
    it('records the old and the new username', () => {
      spec(userDecider)
        .given([registered()])
        .when({ type: 'RenameUser', username: 'alicia', actor: ADMIN })
        .then([{ type: 'UserRenamed', data: { userId: USER_ID, from: 'alice', to: 'alicia' } }]);
    });

    it('uses the current username after an earlier rename', () => {
      const renamed: UserEvent = {
        type: 'UserRenamed',
        data: { userId: USER_ID, from: 'alice', to: 'alicia' },
      };
      spec(userDecider)
        .given([registered(), renamed])
        .when({ type: 'RenameUser', username: 'ally', actor: ROOT })
        .then([{ type: 'UserRenamed', data: { userId: USER_ID, from: 'alicia', to: 'ally' } }]);
    });

    it('produces no events for the same name', () => {
      spec(userDecider)
        .given([registered()])
        .when({ type: 'RenameUser', username: 'alice', actor: ADMIN })
        .then([]);
    });

    it('validates the new username', () => {
      spec(userDecider)
        .given([registered()])
        .when({ type: 'RenameUser', username: ' ', actor: ROOT })
        .thenRejects('user.username_required');
      spec(userDecider)
        .given([registered()])
        .when({ type: 'RenameUser', username: 'b'.repeat(21), actor: ROOT })
        .thenRejects('user.username_too_long', { max: 20 });
      spec(userDecider)
        .given([registered()])
        .when({ type: 'RenameUser', username: 'a b', actor: ROOT })
        .thenRejects('user.username_invalid');
    });

    it('forbids renaming an equal or higher role', () => {
      spec(userDecider)
        .given([registered(Role.Admin)])
        .when({ type: 'RenameUser', username: 'alicia', actor: ADMIN })
        .thenRejects('user.forbidden_same_or_higher_role');
    });

    it('rejects a missing user', () => {
      spec(userDecider)
        .given([])
        .when({ type: 'RenameUser', username: 'alicia', actor: ROOT })
        .thenRejects('user.not_found');
    });
  });

  describe('ChangeGroup', () => {
    it('records the old and the new group', () => {
      spec(userDecider)
        .given([registered()])
        .when({ type: 'ChangeGroup', group: 'vip', actor: ADMIN })
        .then([
          { type: 'UserGroupChanged', data: { userId: USER_ID, from: 'default', to: 'vip' } },
        ]);
    });

    it('uses the current group after an earlier change', () => {
      const changed: UserEvent = {
        type: 'UserGroupChanged',
        data: { userId: USER_ID, from: 'default', to: 'vip' },
      };
      spec(userDecider)
        .given([registered(), changed])
        .when({ type: 'ChangeGroup', group: 'vip', actor: ADMIN })
        .then([]);
      spec(userDecider)
        .given([registered(), changed])
        .when({ type: 'ChangeGroup', group: 'svip', actor: ADMIN })
        .then([{ type: 'UserGroupChanged', data: { userId: USER_ID, from: 'vip', to: 'svip' } }]);
    });

    it('produces no events for the same group', () => {
      spec(userDecider)
        .given([registered()])
        .when({ type: 'ChangeGroup', group: 'default', actor: ROOT })
        .then([]);
    });

    it('rejects an empty or blank group', () => {
      spec(userDecider)
        .given([registered()])
        .when({ type: 'ChangeGroup', group: '', actor: ROOT })
        .thenRejects('user.group_required');
      spec(userDecider)
        .given([registered()])
        .when({ type: 'ChangeGroup', group: '  ', actor: ROOT })
        .thenRejects('user.group_required');
    });

    it('forbids a common user', () => {
      spec(userDecider)
        .given([registered()])
        .when({ type: 'ChangeGroup', group: 'vip', actor: COMMON })
        .thenRejects('user.forbidden_same_or_higher_role');
    });

    it('rejects a deregistered user', () => {
      spec(userDecider)
        .given([registered(), deregistered])
        .when({ type: 'ChangeGroup', group: 'vip', actor: ROOT })
        .thenRejects('user.deregistered');
    });
  });

  describe('ManageUser', () => {
    describe('promote', () => {
      it('lets root promote a common user to administrator', () => {
        spec(userDecider)
          .given([registered()])
          .when(manage('promote'))
          .then([
            {
              type: 'UserRoleChanged',
              data: { userId: USER_ID, from: Role.Common, to: Role.Admin },
            },
          ]);
      });

      it('is reserved to root', () => {
        spec(userDecider)
          .given([registered()])
          .when(manage('promote', ADMIN))
          .thenRejects('user.only_root_can_promote');
      });

      it('rejects an administrator already', () => {
        spec(userDecider)
          .given([registered(Role.Admin)])
          .when(manage('promote'))
          .thenRejects('user.already_admin');
        spec(userDecider)
          .given([registered(Role.Root)])
          .when(manage('promote'))
          .thenRejects('user.already_admin');
      });

      it('sees a promotion from earlier events', () => {
        const promoted: UserEvent = {
          type: 'UserRoleChanged',
          data: { userId: USER_ID, from: Role.Common, to: Role.Admin },
        };
        spec(userDecider)
          .given([registered(), promoted])
          .when(manage('promote'))
          .thenRejects('user.already_admin');
      });
    });

    describe('demote', () => {
      it('turns an administrator back into a common user', () => {
        spec(userDecider)
          .given([registered(Role.Admin)])
          .when(manage('demote'))
          .then([
            {
              type: 'UserRoleChanged',
              data: { userId: USER_ID, from: Role.Admin, to: Role.Common },
            },
          ]);
      });

      it('cannot demote root', () => {
        spec(userDecider)
          .given([registered(Role.Root)])
          .when(manage('demote'))
          .thenRejects('user.cannot_demote_root');
      });

      it('rejects a user who is already common', () => {
        spec(userDecider)
          .given([registered()])
          .when(manage('demote'))
          .thenRejects('user.already_common');
        spec(userDecider)
          .given([registered()])
          .when(manage('demote', ADMIN))
          .thenRejects('user.already_common');
      });

      it('forbids an administrator from demoting another administrator', () => {
        spec(userDecider)
          .given([registered(Role.Admin)])
          .when(manage('demote', ADMIN))
          .thenRejects('user.forbidden_same_or_higher_role');
      });
    });

    describe('enable', () => {
      it('re-enables a disabled user', () => {
        spec(userDecider)
          .given([registered(), disabled])
          .when(manage('enable', ADMIN))
          .then([
            {
              type: 'UserStatusChanged',
              data: { userId: USER_ID, from: UserStatus.Disabled, to: UserStatus.Enabled },
            },
          ]);
      });

      it('produces no events for a user already enabled', () => {
        spec(userDecider).given([registered()]).when(manage('enable', ADMIN)).then([]);
      });
    });

    describe('disable', () => {
      it('disables an enabled user', () => {
        spec(userDecider)
          .given([registered()])
          .when(manage('disable', ADMIN))
          .then([
            {
              type: 'UserStatusChanged',
              data: { userId: USER_ID, from: UserStatus.Enabled, to: UserStatus.Disabled },
            },
          ]);
      });

      it('cannot disable root', () => {
        spec(userDecider)
          .given([registered(Role.Root)])
          .when(manage('disable'))
          .thenRejects('user.cannot_disable_root');
      });

      it('produces no events for a user already disabled', () => {
        spec(userDecider).given([registered(), disabled]).when(manage('disable', ADMIN)).then([]);
      });
    });

    describe('delete', () => {
      it('deregisters the user on behalf of an administrator', () => {
        spec(userDecider)
          .given([registered()])
          .when(manage('delete', ADMIN))
          .then([{ type: 'UserDeregistered', data: { userId: USER_ID, by: 'admin' } }]);
      });

      it('deregisters a disabled user too', () => {
        spec(userDecider)
          .given([registered(), disabled])
          .when(manage('delete'))
          .then([{ type: 'UserDeregistered', data: { userId: USER_ID, by: 'admin' } }]);
      });

      it('cannot delete root', () => {
        spec(userDecider)
          .given([registered(Role.Root)])
          .when(manage('delete'))
          .thenRejects('user.cannot_delete_root');
      });

      it('rejects a user already deregistered', () => {
        spec(userDecider)
          .given([registered(), deregistered])
          .when(manage('delete'))
          .thenRejects('user.deregistered');
      });
    });

    describe('who may manage whom', () => {
      const actions: ManageAction[] = ['promote', 'demote', 'enable', 'disable', 'delete'];

      it.each(actions)('an administrator cannot %s an equal role', (action) => {
        spec(userDecider)
          .given([registered(Role.Admin)])
          .when(manage(action, ADMIN))
          .thenRejects('user.forbidden_same_or_higher_role');
      });

      it.each(actions)('an administrator cannot %s root', (action) => {
        spec(userDecider)
          .given([registered(Role.Root)])
          .when(manage(action, ADMIN))
          .thenRejects('user.forbidden_same_or_higher_role');
      });

      it.each(actions)('a common user cannot %s anyone', (action) => {
        spec(userDecider)
          .given([registered()])
          .when(manage(action, COMMON))
          .thenRejects('user.forbidden_same_or_higher_role');
        spec(userDecider)
          .given([registered(Role.Guest)])
          .when(manage(action, COMMON))
          .thenRejects('user.forbidden_same_or_higher_role');
      });

      it('root can manage an administrator', () => {
        spec(userDecider)
          .given([registered(Role.Admin)])
          .when(manage('disable'))
          .then([
            {
              type: 'UserStatusChanged',
              data: { userId: USER_ID, from: UserStatus.Enabled, to: UserStatus.Disabled },
            },
          ]);
        spec(userDecider)
          .given([registered(Role.Admin)])
          .when(manage('delete'))
          .then([{ type: 'UserDeregistered', data: { userId: USER_ID, by: 'admin' } }]);
      });

      it('root passes the role check on root but the root rules still hold', () => {
        spec(userDecider)
          .given([registered(Role.Root)])
          .when(manage('enable'))
          .then([]);
      });

      it('rejects a missing user before checking the actor', () => {
        spec(userDecider).given([]).when(manage('enable', COMMON)).thenRejects('user.not_found');
      });

      it('rejects an unknown action', () => {
        spec(userDecider)
          .given([registered()])
          .when(manage('archive' as ManageAction))
          .thenRejects('common.invalid_params');
      });
    });
  });

  describe('DeregisterSelf', () => {
    it('deregisters the user on their own request', () => {
      spec(userDecider)
        .given([registered(Role.Admin)])
        .when({ type: 'DeregisterSelf' })
        .then([{ type: 'UserDeregistered', data: { userId: USER_ID, by: 'self' } }]);
    });

    it('root cannot deregister itself', () => {
      spec(userDecider)
        .given([registered(Role.Root)])
        .when({ type: 'DeregisterSelf' })
        .thenRejects('user.cannot_delete_root');
    });

    it('rejects a missing or already deregistered user', () => {
      spec(userDecider).given([]).when({ type: 'DeregisterSelf' }).thenRejects('user.not_found');
      spec(userDecider)
        .given([registered(), deregistered])
        .when({ type: 'DeregisterSelf' })
        .thenRejects('user.deregistered');
    });
  });

  describe('IssueAccessToken', () => {
    it('records the hash of the new system access token', () => {
      spec(userDecider)
        .given([registered()])
        .when({ type: 'IssueAccessToken', tokenHash: 'sha256:abc' })
        .then([
          { type: 'UserAccessTokenIssued', data: { userId: USER_ID, tokenHash: 'sha256:abc' } },
        ]);
    });

    it('issues again after an earlier token', () => {
      const issued: UserEvent = {
        type: 'UserAccessTokenIssued',
        data: { userId: USER_ID, tokenHash: 'sha256:abc' },
      };
      spec(userDecider)
        .given([registered(), issued])
        .when({ type: 'IssueAccessToken', tokenHash: 'sha256:def' })
        .then([
          { type: 'UserAccessTokenIssued', data: { userId: USER_ID, tokenHash: 'sha256:def' } },
        ]);
    });

    it('rejects a missing or deregistered user', () => {
      spec(userDecider)
        .given([])
        .when({ type: 'IssueAccessToken', tokenHash: 'h' })
        .thenRejects('user.not_found');
      spec(userDecider)
        .given([registered(), deregistered])
        .when({ type: 'IssueAccessToken', tokenHash: 'h' })
        .thenRejects('user.deregistered');
    });
  });

  describe('CompleteRegistration', () => {
    it('completes a registration that announced a completion, once', () => {
      const pending = registration({ completionFollows: true });
      spec(userDecider)
        .given([pending])
        .when({ type: 'CompleteRegistration' })
        .then([{ type: 'UserRegistrationCompleted', data: { userId: USER_ID } }]);
      spec(userDecider)
        .given([pending, { type: 'UserRegistrationCompleted', data: { userId: USER_ID } }])
        .when({ type: 'CompleteRegistration' })
        .then([]);
    });

    it('has nothing to complete for older registrations, and rejects an unknown user', () => {
      spec(userDecider).given([registered()]).when({ type: 'CompleteRegistration' }).then([]);
      spec(userDecider)
        .given([])
        .when({ type: 'CompleteRegistration' })
        .thenRejects('user.not_found');
    });
  });

  describe('SignOut', () => {
    it('records the ended session with its issue time', () => {
      spec(userDecider)
        .given([registered()])
        .when({ type: 'SignOut', sessionId: 'sid-1', issuedAt: 1_800_000_000_000 })
        .then([
          {
            type: 'UserSignedOut',
            data: { userId: USER_ID, sessionId: 'sid-1', issuedAt: 1_800_000_000_000 },
          },
        ]);
    });

    it('records nothing for a deregistered user and rejects an unknown one', () => {
      spec(userDecider)
        .given([registered(), deregistered])
        .when({ type: 'SignOut', sessionId: 's', issuedAt: 1 })
        .then([]);
      spec(userDecider)
        .given([])
        .when({ type: 'SignOut', sessionId: 's', issuedAt: 1 })
        .thenRejects('user.not_found');
    });
  });

  describe('evolve', () => {
    it('folds every event into the state', () => {
      const events: UserEvent[] = [
        registration({ role: Role.Common }),
        {
          type: 'UserPasswordChanged',
          data: { userId: USER_ID, passwordHash: 'argon2id$2', reason: 'self' },
        },
        { type: 'UserProfileUpdated', data: { userId: USER_ID, remark: 'r' } },
        { type: 'UserRenamed', data: { userId: USER_ID, from: 'alice', to: 'alicia' } },
        { type: 'UserGroupChanged', data: { userId: USER_ID, from: 'default', to: 'vip' } },
        { type: 'UserRoleChanged', data: { userId: USER_ID, from: Role.Common, to: Role.Admin } },
        disabled,
        { type: 'UserAccessTokenIssued', data: { userId: USER_ID, tokenHash: 'h' } },
        {
          type: 'UserEmailBound',
          data: { userId: USER_ID, email: 'alicia@example.com', previous: '' },
        },
      ];
      const state = events.reduce(userDecider.evolve, userDecider.initialState);
      expect(state).toEqual({
        exists: true,
        userId: USER_ID,
        username: 'alicia',
        displayName: 'Alice',
        remark: 'r',
        role: Role.Admin,
        status: UserStatus.Disabled,
        group: 'vip',
        deregistered: false,
        registrationPending: false,
        verifiedEmail: 'alicia@example.com',
      });
      // No password hash in the aggregate: it would be copied into every snapshot event.
      expect(JSON.stringify(state)).not.toContain('argon2id');
      expect(userDecider.evolve(state, deregistered).deregistered).toBe(true);
    });
  });
});

describe('userDecider: EditUser (several edits in one append)', () => {
  it('emits every change together, in profile, password, group order', () => {
    spec(userDecider)
      .given([registered()])
      .when({
        type: 'EditUser',
        displayName: 'Alice B.',
        passwordHash: 'argon2id$new',
        passwordReason: 'admin',
        group: 'vip',
        actor: ROOT,
      })
      .then([
        { type: 'UserProfileUpdated', data: { userId: USER_ID, displayName: 'Alice B.' } },
        {
          type: 'UserPasswordChanged',
          data: { userId: USER_ID, passwordHash: 'argon2id$new', reason: 'admin' },
        },
        { type: 'UserGroupChanged', data: { userId: USER_ID, from: 'default', to: 'vip' } },
      ]);
  });

  it('leaves out what does not change', () => {
    spec(userDecider)
      .given([registered()])
      .when({ type: 'EditUser', displayName: 'Alice', group: 'default', actor: ROOT })
      .then([]);
  });

  it('a self edit changes the password with reason self and needs no actor', () => {
    spec(userDecider)
      .given([registered()])
      .when({ type: 'EditUser', passwordHash: 'argon2id$new' })
      .then([
        {
          type: 'UserPasswordChanged',
          data: { userId: USER_ID, passwordHash: 'argon2id$new', reason: 'self' },
        },
      ]);
  });

  it('rejects the whole edit when one part is invalid', () => {
    spec(userDecider)
      .given([registered()])
      .when({
        type: 'EditUser',
        displayName: 'x'.repeat(21),
        passwordHash: 'argon2id$new',
        actor: ROOT,
      })
      .thenRejects('user.display_name_too_long', { max: 20 });
    spec(userDecider)
      .given([registered()])
      .when({ type: 'EditUser', displayName: 'Al', group: ' ', actor: ROOT })
      .thenRejects('user.group_required');
  });

  it('keeps the rank rules and refuses a group change without an administrator', () => {
    spec(userDecider)
      .given([registered(Role.Admin)])
      .when({ type: 'EditUser', displayName: 'Boss', actor: ADMIN })
      .thenRejects('user.forbidden_same_or_higher_role');
    spec(userDecider)
      .given([registered()])
      .when({ type: 'EditUser', group: 'vip' })
      .thenRejects('common.invalid_params');
  });
});

describe('userDecider: BindEmail', () => {
  const bound = (email: string, previous = ''): UserEvent => ({
    type: 'UserEmailBound',
    data: { userId: USER_ID, email, previous },
  });

  it('binds a proven email; an unverified one typed at registration is not "previous"', () => {
    spec(userDecider)
      .given([registered()])
      .when({ type: 'BindEmail', email: 'alice@mail.example' })
      .then([bound('alice@mail.example')]);
  });

  it('replaces the verified email, naming the one it replaces', () => {
    spec(userDecider)
      .given([registration({ email: 'old@example.com', emailVerified: true })])
      .when({ type: 'BindEmail', email: 'new@example.com' })
      .then([bound('new@example.com', 'old@example.com')]);
    spec(userDecider)
      .given([registered(), bound('first@example.com')])
      .when({ type: 'BindEmail', email: 'second@example.com' })
      .then([bound('second@example.com', 'first@example.com')]);
  });

  it('binding the address already bound changes nothing', () => {
    spec(userDecider)
      .given([registered(), bound('alice@mail.example')])
      .when({ type: 'BindEmail', email: 'alice@mail.example' })
      .then([]);
  });

  it('refuses a malformed address, a missing user and a deregistered one', () => {
    spec(userDecider)
      .given([registered()])
      .when({ type: 'BindEmail', email: 'not-an-email' })
      .thenRejects('auth.email_invalid');
    spec(userDecider)
      .given([registered()])
      .when({ type: 'BindEmail', email: `${'a'.repeat(250)}@b.io` })
      .thenRejects('auth.email_invalid');
    spec(userDecider)
      .given([])
      .when({ type: 'BindEmail', email: 'a@b.io' })
      .thenRejects('user.not_found');
    spec(userDecider)
      .given([registered(), deregistered])
      .when({ type: 'BindEmail', email: 'a@b.io' })
      .thenRejects('user.deregistered');
  });
});
