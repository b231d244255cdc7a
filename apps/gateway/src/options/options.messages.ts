import type { MessageTable } from '../shared/i18n/message-table';

/** Texts of option validation, zh-CN in the wording of one-api and new-api. */
export const OPTION_MESSAGES: MessageTable = {
  'option.unknown_key': { 'zh-CN': '未知的配置项 {key}', en: 'Unknown option {key}' },
  'option.unchanged': {
    'zh-CN': '你似乎并没有修改什么',
    en: 'You do not seem to have changed anything',
  },
  'option.invalid_bool': {
    'zh-CN': '{key} 必须是 true 或 false',
    en: '{key} must be true or false',
  },
  'option.invalid_choice': {
    'zh-CN': '{key} 只能是 {choices} 之一',
    en: '{key} must be one of {choices}',
  },
  'option.invalid_int': { 'zh-CN': '{key} 必须是整数', en: '{key} must be an integer' },
  'option.invalid_number': { 'zh-CN': '{key} 必须是数字', en: '{key} must be a number' },
  'option.below_minimum': { 'zh-CN': '{key} 不能小于 {min}', en: '{key} must be at least {min}' },
  'option.above_maximum': { 'zh-CN': '{key} 不能大于 {max}', en: '{key} must be at most {max}' },
  'option.invalid_address': {
    'zh-CN': '{key} 不是合法的 http(s) 地址',
    en: '{key} is not a valid http(s) address',
  },
  'option.invalid_json': {
    'zh-CN': '{key} 不是合法的 JSON 字符串',
    en: '{key} is not a valid JSON string',
  },
  'option.topup_group_ratio_invalid_json': {
    'zh-CN': '充值分组倍率不是合法的 JSON 字符串',
    en: 'The top-up group ratio is not a valid JSON string',
  },
  'option.invalid_email_domain': {
    'zh-CN': '邮箱域名 {domain} 不合法',
    en: 'Invalid email domain {domain}',
  },
  'option.github_oauth_incomplete': {
    'zh-CN': '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！',
    en: 'Cannot enable GitHub OAuth: fill in the GitHub Client Id and Client Secret first',
  },
  'option.wechat_incomplete': {
    'zh-CN': '无法启用微信登录，请先填入微信登录相关配置信息！',
    en: 'Cannot enable WeChat login: fill in the WeChat server address and token first',
  },
  'option.turnstile_incomplete': {
    'zh-CN': '无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！',
    en: 'Cannot enable Turnstile: fill in the site key and secret key first',
  },
  'option.telegram_incomplete': {
    'zh-CN': '无法启用 Telegram OAuth，请先填入 Telegram Bot 相关配置信息！',
    en: 'Cannot enable Telegram login: fill in the bot name and bot token first',
  },
  'option.smtp_incomplete': {
    'zh-CN': '无法开启邮箱验证，请先填入 SMTP 相关配置信息！',
    en: 'Cannot enable email verification: fill in the SMTP settings first',
  },
  'option.email_whitelist_empty': {
    'zh-CN': '无法启用邮箱域名限制，请先填入限制的邮箱域名！',
    en: 'Cannot restrict email domains: fill in the allowed domains first',
  },
  'option.server_address_required': {
    'zh-CN': '请先填写服务器地址',
    en: 'Please fill in the server address first',
  },
};
