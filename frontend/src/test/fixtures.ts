import {
  SINGLE_KEY_CHANNEL_FIELDS,
  type ChannelDto,
  type LogDto,
  type RedemptionDto,
  type TokenDto,
  type UserDto,
} from '@tollgate/contracts';

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
    oidc_id: '',
    linux_do_id: '',
    setting: '',
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
    period_quota: 0,
    period: '',
    period_used: 0,
    period_reset_at: 0,
    ...overrides,
  };
}

/** A complete TokenDto for tests (an enabled token of user 2). */
export function tokenFixture(overrides: Partial<TokenDto> = {}): TokenDto {
  return {
    id: 1,
    user_id: 2,
    name: 'laptop',
    key: 'a'.repeat(48),
    status: 1,
    created_time: 1_700_000_000,
    accessed_time: 0,
    expired_time: -1,
    remain_quota: 500_000,
    used_quota: 0,
    unlimited_quota: false,
    model_limits_enabled: false,
    model_limits: '',
    allow_ips: '',
    group: '',
    rate_limit_rpm: 0,
    rate_limit_tpm: 0,
    rate_limit_concurrency: 0,
    period_quota: 0,
    period: '',
    period_used: 0,
    period_reset_at: 0,
    model_fallback: true,
    ...overrides,
  };
}

/** A complete RedemptionDto for tests (an unused code). */
export function redemptionFixture(overrides: Partial<RedemptionDto> = {}): RedemptionDto {
  return {
    id: 1,
    user_id: 1,
    name: 'promo',
    key: 'k'.repeat(32),
    status: 1,
    quota: 100_000,
    created_time: 1_700_000_000,
    redeemed_time: 0,
    used_user_id: 0,
    ...overrides,
  };
}

/** A complete ChannelDto as the API answers it (key always empty). */
export function channelFixture(overrides: Partial<ChannelDto> = {}): ChannelDto {
  return {
    id: 1,
    type: 1,
    key: '',
    name: 'openai-main',
    status: 1,
    openai_organization: '',
    test_model: '',
    max_input_tokens: 0,
    base_url: '',
    other: '',
    model_mapping: '',
    status_code_mapping: '',
    param_override: '',
    models: 'gpt-4o,gpt-4o-mini',
    group: 'default',
    auto_ban: 1,
    priority: 0,
    weight: 0,
    tag: '',
    setting: '',
    other_info: '',
    response_time: 0,
    created_time: 1_700_000_000,
    test_time: 0,
    balance: 0,
    balance_updated_time: 0,
    used_quota: 0,
    ...SINGLE_KEY_CHANNEL_FIELDS,
    ...overrides,
  };
}

/** A complete LogDto for tests (a top-up row of user 2). */
export function logFixture(overrides: Partial<LogDto> = {}): LogDto {
  return {
    id: 1,
    created_at: 1_700_000_000,
    type: 1,
    user_id: 2,
    username: 'alice',
    token_name: '',
    model_name: '',
    quota: 500_000,
    prompt_tokens: 0,
    completion_tokens: 0,
    use_time: 0,
    is_stream: false,
    channel: 0,
    channel_name: '',
    token_id: 0,
    group: '',
    request_id: '',
    retry: '',
    ip: '',
    content: '通过兑换码充值 $1.00',
    other: '',
    ...overrides,
  };
}
