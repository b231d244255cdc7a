/** Server texts of the ledger (registered by server-messages.ts). */
export const BILLING_MESSAGES = {
  'billing.quota_moved': {
    'zh-CN': '该用户的额度已发生变化（当前 {current}），请刷新后重新修改',
    en: "The user's balance changed meanwhile (now {current}); reload and edit again",
  },
  'budget.incomplete': {
    'zh-CN': '周期额度与周期必须同时设置（或同时清空）',
    en: 'A budget needs both a period quota and a period (or neither)',
  },
  'budget.quota_invalid': {
    'zh-CN': '周期额度必须是大于等于 0 的整数',
    en: 'The period quota must be an integer of at least 0',
  },
  'budget.period_invalid': {
    'zh-CN': '周期只能是 day、week 或 month',
    en: 'The period must be day, week or month',
  },
  'billing.invalid_amount': {
    'zh-CN': '额度必须是非负整数',
    en: 'The quota must be a non-negative integer',
  },
  'billing.transfer_below_minimum': {
    'zh-CN': '划转金额最低为 {minimum}',
    en: 'The transfer must be at least {minimum}',
  },
  'billing.aff_quota_insufficient': {
    'zh-CN': '邀请额度不足！',
    en: 'Not enough invitation quota',
  },
} as const;
