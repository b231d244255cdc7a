/** Server texts of the status routes (registered by server-messages.ts). */
export const STATUS_MESSAGES = {
  'status.storage_down': { 'zh-CN': '数据库连接失败', en: 'Database connection failed' },
} as const;
