/** Server texts of the history and the ledger check (registered by server-messages.ts). */
export const HISTORY_MESSAGES = {
  'history.verify_running': {
    'zh-CN': '账本校验正在进行，请稍后再试',
    en: 'A ledger check is already running, please try again later',
  },
} as const;
