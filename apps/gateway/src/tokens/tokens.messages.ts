/** Server texts of tokens (registered by server-messages.ts). */
export const TOKEN_MESSAGES = {
  'token.not_found': { 'zh-CN': '令牌不存在', en: 'Token not found' },
  'token.already_exists': { 'zh-CN': '令牌已存在', en: 'The token already exists' },
  'token.name_required': { 'zh-CN': '令牌名称不能为空', en: 'The token name is required' },
  'token.name_too_long': { 'zh-CN': '令牌名称过长', en: 'The token name is too long (30 at most)' },
  'token.expiry_invalid': {
    'zh-CN': '过期时间格式错误！',
    en: 'Invalid expiry: -1 (never) or a time in the future',
  },
  'token.quota_invalid': {
    'zh-CN': '额度必须是大于等于 0 的整数',
    en: 'The quota must be an integer of at least 0',
  },
  'token.ip_invalid': {
    'zh-CN': 'IP 白名单格式错误：{ip}',
    en: 'Invalid IP or CIDR in the allow list: {ip}',
  },
  'token.group_forbidden': {
    'zh-CN': '无权使用该分组',
    en: 'You may not use this group',
  },
  'token.rate_limit_invalid': {
    'zh-CN': '限流值必须是大于等于 0 的整数',
    en: 'Rate limits must be integers of at least 0',
  },
  'token.status_invalid': { 'zh-CN': '无效的令牌状态', en: 'Invalid token status' },
  'token.expired_extend_first': {
    'zh-CN': '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
    en: 'The token has expired: set a later expiry (or never) before enabling it',
  },
  'token.exhausted_add_quota': {
    'zh-CN': '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
    en: 'The token has no quota left: raise its quota (or make it unlimited) before enabling it',
  },
  'token.count_invalid': {
    'zh-CN': '创建数量必须在 1 到 100 之间',
    en: 'The count must be between 1 and 100',
  },
} as const;
