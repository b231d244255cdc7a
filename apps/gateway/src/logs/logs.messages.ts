/** Server texts of the log (registered by server-messages.ts). */
export const LOG_MESSAGES = {
  'log.target_timestamp_invalid': {
    'zh-CN': '请选择日志记录时间',
    en: 'Choose the time up to which logs are cleared',
  },
} as const;
