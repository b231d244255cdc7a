import { Role } from '@tollgate/contracts';
import { DomainError } from '../shared/domain-error';
import {
  DEFAULT_GROUP,
  DISPLAY_NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  assertExisting,
  assertMayManage,
  assertPasswordRules,
  assertValidDisplayName,
  assertValidUsername,
  canonicalDisplayName,
  canonicalUsername,
  normalizeUsername,
} from './user.rules';
import { initialUserState, type UserState } from './user.state';

/** Runs `action` and returns the DomainError it threw (fails the test when it threw nothing else). */
function rejection(action: () => void): DomainError {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DomainError);
  return caught as DomainError;
}

const user = (overrides: Partial<UserState> = {}): UserState => ({
  ...initialUserState,
  exists: true,
  userId: 5,
  username: 'bob',
  role: Role.Common,
  status: 1,
  group: DEFAULT_GROUP,
  ...overrides,
});

describe('user rules', () => {
  it('uses the limits of one-api and new-api', () => {
    expect(USERNAME_MAX_LENGTH).toBe(20);
    expect(DISPLAY_NAME_MAX_LENGTH).toBe(20);
    expect(PASSWORD_MIN_LENGTH).toBe(8);
    expect(PASSWORD_MAX_LENGTH).toBe(20);
    expect(DEFAULT_GROUP).toBe('default');
  });

  describe('canonical forms (NFKC)', () => {
    it('folds fullwidth and compatibility forms so lookalikes collide with the real name', () => {
      expect(canonicalUsername('\uff32oot')).toBe('Root');
      expect(normalizeUsername('\uff32\uff4f\uff4f\uff54')).toBe(normalizeUsername('root'));
      expect(canonicalDisplayName('  \uff21nn\u00a0 ')).toBe('Ann');
    });
  });

  describe('normalizeUsername', () => {
    it('trims and lower-cases so that "Alice" and "alice" are one name', () => {
      expect(normalizeUsername('  Alice ')).toBe('alice');
      expect(normalizeUsername('ALICE')).toBe(normalizeUsername('alice'));
      expect(normalizeUsername('bob_42')).toBe('bob_42');
    });
  });

  describe('assertValidUsername', () => {
    it('accepts names of 1 to 20 characters without whitespace', () => {
      expect(() => assertValidUsername('a')).not.toThrow();
      expect(() => assertValidUsername('a'.repeat(20))).not.toThrow();
      expect(() => assertValidUsername('Alice_B-2.x')).not.toThrow();
    });

    it('keeps to ASCII letters, digits and _ . - : no lookalike, invisible or control characters', () => {
      for (const name of [
        'root\u200b', // zero-width space
        'r\u043eot', // Cyrillic o
        '\u202etoor', // right-to-left override
        'ro\u0000ot',
        'ro\ud800ot', // lone surrogate
        'bob@example.com',
        'ali\u0301ce', // combining accent
        '用户',
      ]) {
        expect(rejection(() => assertValidUsername(name)).code).toBe('user.username_invalid');
      }
    });

    it('requires a name', () => {
      expect(rejection(() => assertValidUsername('')).code).toBe('user.username_required');
      expect(rejection(() => assertValidUsername(' \t\n')).code).toBe('user.username_required');
    });

    it('rejects more than 20 characters with the maximum as a parameter', () => {
      const error = rejection(() => assertValidUsername('a'.repeat(21)));
      expect(error.code).toBe('user.username_too_long');
      expect(error.params).toEqual({ max: 20 });
    });

    it('rejects whitespace anywhere in the name', () => {
      for (const name of [' alice', 'alice ', 'al ice', 'al\tice', 'al\nice', 'al\u00a0ice']) {
        expect(rejection(() => assertValidUsername(name)).code).toBe('user.username_invalid');
      }
    });
  });

  describe('assertValidDisplayName', () => {
    it('accepts up to 20 characters, including none', () => {
      expect(() => assertValidDisplayName('')).not.toThrow();
      expect(() => assertValidDisplayName('Display Name 20 char')).not.toThrow();
    });

    it('accepts any script but no control, format, bidi, line-separator or lone-surrogate character', () => {
      expect(() => assertValidDisplayName('张三 Ünïcode')).not.toThrow();
      for (const name of ['a\u0007b', 'a\u200bb', '\u202eabc', 'a\u2028b', 'a\ud800', 'a\u0000']) {
        expect(rejection(() => assertValidDisplayName(name)).code).toBe(
          'user.display_name_invalid',
        );
      }
    });

    it('rejects more than 20 characters', () => {
      const error = rejection(() => assertValidDisplayName('d'.repeat(21)));
      expect(error.code).toBe('user.display_name_too_long');
      expect(error.params).toEqual({ max: 20 });
    });
  });

  describe('assertPasswordRules', () => {
    it('accepts 8 to 20 characters', () => {
      expect(() => assertPasswordRules('12345678')).not.toThrow();
      expect(() => assertPasswordRules('p'.repeat(20))).not.toThrow();
    });

    it('requires a password', () => {
      expect(rejection(() => assertPasswordRules('')).code).toBe('user.password_required');
    });

    it('rejects fewer than 8 characters', () => {
      expect(rejection(() => assertPasswordRules('1234567')).code).toBe('user.password_too_short');
    });

    it('rejects more than 20 characters', () => {
      const error = rejection(() => assertPasswordRules('p'.repeat(21)));
      expect(error.code).toBe('user.password_too_long');
      expect(error.params).toEqual({ max: 20 });
    });
  });

  describe('assertExisting', () => {
    it('accepts a registered user, enabled or disabled', () => {
      expect(() => assertExisting(user())).not.toThrow();
      expect(() => assertExisting(user({ status: 2 }))).not.toThrow();
    });

    it('rejects a user never registered', () => {
      expect(rejection(() => assertExisting(initialUserState)).code).toBe('user.not_found');
    });

    it('rejects a deregistered user', () => {
      expect(rejection(() => assertExisting(user({ deregistered: true }))).code).toBe(
        'user.deregistered',
      );
    });
  });

  describe('assertMayManage', () => {
    const actor = (role: number) => ({ id: 1, role });
    const forbidden = (actorRole: number, targetRole: number) =>
      rejection(() => assertMayManage(actor(actorRole), user({ role: targetRole }))).code;

    it('lets root manage everyone, root included', () => {
      for (const role of [Role.Guest, Role.Common, Role.Admin, Role.Root]) {
        expect(() => assertMayManage(actor(Role.Root), user({ role }))).not.toThrow();
      }
    });

    it('lets an administrator manage only lower roles', () => {
      expect(() => assertMayManage(actor(Role.Admin), user({ role: Role.Common }))).not.toThrow();
      expect(() => assertMayManage(actor(Role.Admin), user({ role: Role.Guest }))).not.toThrow();
      expect(forbidden(Role.Admin, Role.Admin)).toBe('user.forbidden_same_or_higher_role');
      expect(forbidden(Role.Admin, Role.Root)).toBe('user.forbidden_same_or_higher_role');
    });

    it('lets no ordinary user manage anyone', () => {
      expect(forbidden(Role.Common, Role.Guest)).toBe('user.forbidden_same_or_higher_role');
      expect(forbidden(Role.Common, Role.Common)).toBe('user.forbidden_same_or_higher_role');
      expect(forbidden(Role.Guest, Role.Guest)).toBe('user.forbidden_same_or_higher_role');
    });
  });
});
