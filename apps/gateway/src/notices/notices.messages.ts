/** Server texts of the notices (registered by server-messages.ts). */
export const NOTICE_MESSAGES = {
  'notice.notify_type_invalid': {
    'zh-CN': '通知方式只能是 email 或 webhook',
    en: 'The notify type must be email or webhook',
  },
  'notice.threshold_invalid': {
    'zh-CN': '额度提醒阈值必须是不小于 0 的整数',
    en: 'The warning threshold must be an integer of at least 0',
  },
  'notice.webhook_url_invalid': {
    'zh-CN': 'Webhook 地址必须以 http:// 或 https:// 开头，且不超过 500 个字符',
    en: 'The webhook URL must start with http:// or https:// and have at most 500 characters',
  },
  'notice.webhook_url_required': {
    'zh-CN': '选择 Webhook 通知时必须填写 Webhook 地址',
    en: 'A webhook URL is required for webhook notices',
  },
  'notice.webhook_private_address': {
    'zh-CN': 'Webhook 地址指向内网、回环或链路本地地址，已被拒绝',
    en: 'The webhook URL resolves to a private, loopback or link-local address and is refused',
  },
  'notice.webhook_unresolved': {
    'zh-CN': '无法解析 Webhook 地址的主机名',
    en: "The webhook URL's host name does not resolve",
  },
  'notice.test_failed': {
    'zh-CN': '测试通知发送失败：{error}',
    en: 'The test notice failed: {error}',
  },
} as const;
