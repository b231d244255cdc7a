/** Server texts of the ledger (spread into MESSAGES). */
export const BILLING_MESSAGES = {
  'billing.quota_moved': {
    'zh-CN': '该用户的额度已发生变化（当前 {current}），请刷新后重新修改',
    en: "The user's balance changed meanwhile (now {current}); reload and edit again",
  },
} as const;
