import type { UserDto } from '@tollgate/contracts';

/** A complete UserDto for tests; override what the test is about. */
export function userFixture(overrides: Partial<UserDto> = {}): UserDto {
  return {
    id: 2,
    username: 'alice',
    display_name: 'Alice',
    role: 1,
    status: 1,
    email: 'alice@example.com',
    github_id: '',
    wechat_id: '',
    telegram_id: '',
    group: 'default',
    quota: 1_250_000,
    used_quota: 250_000,
    request_count: 42,
    aff_code: 'Qx7a',
    aff_count: 3,
    aff_quota: 1_000_000,
    aff_history_quota: 1_500_000,
    inviter_id: 0,
    remark: '',
    created_at: 1_700_000_000,
    DeletedAt: null,
    ...overrides,
  };
}
