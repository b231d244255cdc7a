/** Server texts of the log (spread into MESSAGES). */
export const LOG_MESSAGES = {
  'log.target_timestamp_invalid': {
    'zh-CN': '请选择日志记录时间',
    en: 'Choose the time up to which logs are cleared',
  },
} as const;
