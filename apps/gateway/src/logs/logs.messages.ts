/** Server texts of the log (registered by server-messages.ts). */
export const LOG_MESSAGES = {
  'log.target_timestamp_invalid': {
    'zh-CN': '请选择日志记录时间',
    en: 'Choose the time up to which logs are cleared',
  },
  'log.token_invalid': { 'zh-CN': '无效的令牌', en: 'Invalid token' },
  'log.user_banned': { 'zh-CN': '用户已被封禁', en: 'The user is banned' },
} as const;
