/** Server texts of online top-up (registered by server-messages.ts); zh-CN from new-api's controller/topup.go. */
export const TOPUP_MESSAGES = {
  'topup.amount_invalid': { 'zh-CN': '充值数量无效', en: 'Invalid top-up amount' },
  'topup.amount_below_minimum': {
    'zh-CN': '充值数量不能小于 {minimum}',
    en: 'The top-up amount cannot be less than {minimum}',
  },
  'topup.amount_too_large': {
    'zh-CN': '单笔充值数量不能大于 {maximum}',
    en: 'One top-up cannot be more than {maximum}',
  },
  'topup.money_too_low': { 'zh-CN': '充值金额过低', en: 'The amount to pay is too low' },
  'topup.pay_method_invalid': { 'zh-CN': '支付方式不存在', en: 'Unknown payment method' },
  'topup.not_configured': {
    'zh-CN': '当前管理员未配置支付信息',
    en: 'The administrator has not configured payment',
  },
  'topup.order_not_found': { 'zh-CN': '充值订单不存在', en: 'Top-up order not found' },
  'topup.order_exists': { 'zh-CN': '充值订单已存在', en: 'The top-up order already exists' },
  'topup.trade_no_invalid': { 'zh-CN': '订单号无效', en: 'Invalid trade number' },
  'topup.already_completed': {
    'zh-CN': '订单已完成，无需补单',
    en: 'The order is already completed',
  },
  'topup.status_invalid': { 'zh-CN': '订单状态非法', en: 'The order is in a wrong state' },
  'topup.money_mismatch': {
    'zh-CN': '支付金额与订单不符',
    en: 'The paid amount does not match the order',
  },
  'topup.provider_mismatch': {
    'zh-CN': '订单支付网关不匹配',
    en: 'The order belongs to another payment gateway',
  },
  'topup.crypto_ended': {
    'zh-CN': '加密货币充值功能已于 2025-03-15 停止',
    en: 'Crypto top-up ended on 2025-03-15',
  },
} as const;
