import { Role, UserStatus } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { isDeregistered, userRights } from './user-state';

const root = { id: 1, role: Role.Root };
const admin = { id: 2, role: Role.Admin };
const common = { id: 3, role: Role.Common };

describe('user rights', () => {
  it('given root viewing a common user, then every action is offered', () => {
    expect(userRights(root, common)).toEqual({
      promote: true,
      demote: false,
      manage: true,
      self: false,
    });
  });

  it('given root viewing an admin, then demote but no promote', () => {
    expect(userRights(root, admin)).toMatchObject({ promote: false, demote: true, manage: true });
  });

  it('given an admin viewing another admin, then nothing but the history', () => {
    expect(userRights(admin, { id: 4, role: Role.Admin })).toEqual({
      promote: false,
      demote: false,
      manage: false,
      self: false,
    });
  });

  it('given anyone viewing root, then root is not managed, only edited by itself', () => {
    expect(userRights(admin, root).manage).toBe(false);
    expect(userRights(root, root)).toMatchObject({ manage: false, self: true });
  });

  it('given no viewer, then nothing is offered', () => {
    expect(userRights(null, common)).toMatchObject({ promote: false, manage: false, self: false });
  });
});

describe('deregistered users', () => {
  it('given status 3 or a DeletedAt time, then the user counts as deregistered', () => {
    expect(isDeregistered({ status: UserStatus.Deregistered, DeletedAt: null })).toBe(true);
    expect(isDeregistered({ status: UserStatus.Enabled, DeletedAt: '2026-01-01' })).toBe(true);
    expect(isDeregistered({ status: UserStatus.Enabled, DeletedAt: null })).toBe(false);
  });
});
