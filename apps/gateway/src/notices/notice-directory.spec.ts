import { recordedEvent } from '@tollgate/testing';
import { NoticeDirectory } from './notice-directory';

const source = { project: 'one-api', table: 'users', rowId: 0, importedAt: '2026-01-01T00:00:00Z' };
const imported = (userId: number, role: number, extra: Record<string, unknown> = {}) =>
  recordedEvent('UserImported', {
    userId,
    username: `u${userId}`,
    displayName: '',
    passwordHash: '',
    role,
    status: 1,
    group: 'default',
    email: `u${userId}@example.com`,
    emailVerified: true,
    identities: {},
    accessTokenHash: '',
    affCode: '',
    inviterId: 0,
    deleted: false,
    source: { ...source, rowId: userId },
    ...extra,
  });

describe('NoticeDirectory', () => {
  it('knows imported users as it knows registered ones: email, role, status, deletion', () => {
    const directory = new NoticeDirectory();
    directory.apply([
      imported(1, 100),
      imported(2, 1),
      imported(3, 100, { status: 2 }),
      imported(4, 100, { deleted: true }),
      recordedEvent('UserRegistered', {
        userId: 5,
        username: 'r',
        role: 100,
        email: 'r@example.com',
      }),
    ]);
    expect(directory.recipient(2)).toMatchObject({ email: 'u2@example.com', role: 1 });
    // Channel alerts go to enabled, not deleted roots: the disabled and deleted imports are out.
    expect(directory.alertRecipients().map((r) => r.userId)).toEqual([1, 5]);
  });
});
