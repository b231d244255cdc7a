/** Server texts of the Stripe top-up (registered by server-messages.ts). */
export const STRIPE_MESSAGES: Readonly<Record<string, { 'zh-CN': string; en: string }>> = {
  'stripe.disabled': {
    'zh-CN': '管理员未开启 Stripe 充值',
    en: 'Stripe top-up is not enabled by the administrator',
  },
  'stripe.amount_invalid': { 'zh-CN': '充值数量必须是整数', en: 'The amount must be an integer' },
  'stripe.amount_too_large': {
    'zh-CN': '充值数量不能大于 {maximum}',
    en: 'The amount cannot be more than {maximum}',
  },
  'stripe.checkout_failed': {
    'zh-CN': '拉起支付失败：{detail}',
    en: 'Could not start the payment: {detail}',
  },
  'stripe.signature_invalid': {
    'zh-CN': 'Stripe Webhook 验签失败',
    en: 'The Stripe webhook signature is invalid',
  },
};
