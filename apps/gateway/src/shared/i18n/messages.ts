import { HTTP_EDGE_MESSAGES } from '../../http-edge/http-edge.messages';
import { BILLING_MESSAGES } from '../../billing/billing.messages';
import { TOKEN_MESSAGES } from '../../tokens/tokens.messages';
import { REDEMPTION_MESSAGES } from '../../redemptions/redemptions.messages';
import { TOPUP_MESSAGES } from '../../topup/topup.messages';
import { LOG_MESSAGES } from '../../logs/logs.messages';
import { RELAY_MESSAGES } from '../../relay/relay.messages';
import { USAGE_DATA_MESSAGES } from '../../usage-data/usage-data.messages';
import { CHANNEL_MESSAGES } from '../../channels/channels.messages';
import { OAUTH_MESSAGES } from '../../oauth/oauth.messages';
import { SETUP_MESSAGES } from '../../setup/setup.messages';
import { MAIL_MESSAGES } from '../../mail/mail.messages';
import { VALIDATION_MESSAGES } from './validation.messages';
import { HISTORY_MESSAGES } from '../../history/history.messages';
import { STRIPE_MESSAGES } from '../../topup/stripe/stripe.messages';
import { NOTICE_MESSAGES } from '../../notices/notices.messages';

/**
 * Server-side texts by stable code, zh-CN (the anchors' wording, verbatim where the spec gives it)
 * and en. `{name}` placeholders are filled from the error's params.
 */
export const MESSAGES: Readonly<Record<string, { 'zh-CN': string; en: string }>> = {
  ...HTTP_EDGE_MESSAGES,
  ...CHANNEL_MESSAGES,
  ...OAUTH_MESSAGES,
  ...SETUP_MESSAGES,
  ...MAIL_MESSAGES,
  ...VALIDATION_MESSAGES,
  ...HISTORY_MESSAGES,
  ...STRIPE_MESSAGES,
  ...NOTICE_MESSAGES,
  'common.invalid_params': { 'zh-CN': '无效的参数', en: 'Invalid parameters' },
  'common.invalid_input': { 'zh-CN': '输入不合法：{detail}', en: 'Invalid input: {detail}' },
  'common.not_found': { 'zh-CN': '资源不存在', en: 'Not found' },
  'common.internal_error': {
    'zh-CN': '服务器内部错误，请联系管理员！',
    en: 'Internal server error, please contact the administrator',
  },
  'common.too_many_requests': {
    'zh-CN': '请求次数过多，请稍后再试！',
    en: 'Too many requests, please try again later',
  },
  'common.busy': { 'zh-CN': '系统繁忙，请稍后再试', en: 'The system is busy, please try again' },
  'auth.not_logged_in': {
    'zh-CN': '无权进行此操作，未登录且未提供 access token',
    en: 'Not logged in and no access token provided',
  },
  'auth.access_token_invalid': {
    'zh-CN': '无权进行此操作，access token 无效',
    en: 'Invalid access token',
  },
  'auth.user_header_missing': {
    'zh-CN': '无权进行此操作，未提供 New-Api-User',
    en: 'The New-Api-User header is missing',
  },
  'auth.user_header_mismatch': {
    'zh-CN': '无权进行此操作，New-Api-User 与登录用户不匹配',
    en: 'New-Api-User does not match the signed-in user',
  },
  'auth.forbidden': { 'zh-CN': '无权进行此操作，权限不足', en: 'Permission denied' },
  'auth.user_disabled': { 'zh-CN': '用户已被封禁', en: 'This user has been banned' },
  'auth.session_expired': {
    'zh-CN': '未登录或登录已过期，请重新登录！',
    en: 'Not logged in or the session expired, please log in again',
  },
  'auth.password_login_disabled': {
    'zh-CN': '管理员关闭了密码登录',
    en: 'The administrator turned off password login',
  },
  'auth.credentials_required': {
    'zh-CN': '请输入用户名和密码！',
    en: 'Please enter the username and password',
  },
  'auth.wrong_credentials': {
    'zh-CN': '用户名或密码错误，或用户已被封禁',
    en: 'Wrong username or password, or the user is banned',
  },
  'auth.register_disabled': {
    'zh-CN': '管理员关闭了新用户注册',
    en: 'The administrator turned off registration',
  },
  'auth.password_register_disabled': {
    'zh-CN': '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册',
    en: 'The administrator turned off password registration; please register with a third-party account',
  },
  'auth.passwords_differ': { 'zh-CN': '两次输入的密码不一致', en: 'The two passwords differ' },
  'auth.email_verification_required': {
    'zh-CN': '管理员开启了邮箱验证，请输入邮箱地址和验证码',
    en: 'Email verification is on: please enter your email address and the verification code',
  },
  'auth.verification_code_invalid': {
    'zh-CN': '验证码错误或已过期',
    en: 'The verification code is wrong or expired',
  },
  'auth.email_domain_not_allowed': {
    'zh-CN': '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
    en: 'The administrator restricts email domains and yours is not on the whitelist',
  },
  'auth.email_alias_not_allowed': {
    'zh-CN': '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。',
    en: 'The administrator forbids email aliases; your address was rejected because it contains special characters.',
  },
  'auth.email_invalid': { 'zh-CN': '邮箱地址不合法', en: 'Invalid email address' },
  'auth.original_password_wrong': { 'zh-CN': '原密码错误', en: 'The current password is wrong' },
  'auth.original_password_required': {
    'zh-CN': '修改密码需要提供原密码',
    en: 'Changing the password needs the current password',
  },
  'auth.not_available_yet': { 'zh-CN': '该功能尚未启用', en: 'This feature is not available yet' },
  'user.not_found': { 'zh-CN': '用户不存在', en: 'User not found' },
  'user.already_exists': { 'zh-CN': '用户已存在', en: 'The user already exists' },
  'user.username_taken': { 'zh-CN': '用户名已存在', en: 'The username is already taken' },
  'user.username_required': { 'zh-CN': '用户名不能为空', en: 'The username is required' },
  'user.username_too_long': {
    'zh-CN': '用户名长度不得超过 {max} 位',
    en: 'The username must be at most {max} characters',
  },
  'user.username_invalid': {
    'zh-CN': '用户名只能包含英文字母、数字和 _ . -',
    en: 'The username may contain only letters A-Z, digits and _ . -',
  },
  'user.own_password_via_self': {
    'zh-CN': '修改自己的密码请在个人设置中进行，并输入原密码',
    en: 'Change your own password in your personal settings, with your current password',
  },
  'user.display_name_invalid': {
    'zh-CN': '显示名称包含不允许的字符',
    en: 'The display name contains a character that is not allowed',
  },
  'user.display_name_too_long': {
    'zh-CN': '显示名称长度不得超过 {max} 位',
    en: 'The display name must be at most {max} characters',
  },
  'user.password_required': { 'zh-CN': '密码不能为空', en: 'The password is required' },
  'user.password_too_short': {
    'zh-CN': '密码长度不得小于 8 位！',
    en: 'The password must be at least 8 characters',
  },
  'user.password_too_long': {
    'zh-CN': '密码长度不得超过 {max} 位',
    en: 'The password must be at most {max} characters',
  },
  'user.group_required': { 'zh-CN': '分组不能为空', en: 'The group is required' },
  'user.group_unknown': { 'zh-CN': '分组不存在', en: 'Unknown group' },
  'user.deregistered': { 'zh-CN': '用户已注销', en: 'The user has been deregistered' },
  'user.forbidden_same_or_higher_role': {
    'zh-CN': '无权更新同权限等级或更高权限等级的用户信息',
    en: 'You cannot manage a user of the same or a higher role',
  },
  'user.forbidden_view_same_or_higher_role': {
    'zh-CN': '无权获取同级或更高等级用户的信息',
    en: 'You cannot view a user of the same or a higher role',
  },
  'user.aff_code_taken': { 'zh-CN': '邀请码已被占用', en: 'The invitation code is taken' },
  'user.only_root_can_promote': {
    'zh-CN': '普通管理员用户无法提升其他用户为管理员',
    en: 'Only the super administrator can promote users',
  },
  'user.already_admin': {
    'zh-CN': '该用户已经是管理员',
    en: 'The user is already an administrator',
  },
  'user.cannot_demote_root': {
    'zh-CN': '无法降级超级管理员用户',
    en: 'The super administrator cannot be demoted',
  },
  'user.already_common': {
    'zh-CN': '该用户已经是普通用户',
    en: 'The user is already an ordinary user',
  },
  'user.cannot_disable_root': {
    'zh-CN': '无法禁用超级管理员用户',
    en: 'The super administrator cannot be disabled',
  },
  'user.cannot_delete_root': {
    'zh-CN': '不能删除超级管理员账户',
    en: 'The super administrator account cannot be deleted',
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
  ...BILLING_MESSAGES,
  ...TOKEN_MESSAGES,
  ...REDEMPTION_MESSAGES,
  ...TOPUP_MESSAGES,
  ...LOG_MESSAGES,
  ...RELAY_MESSAGES,
  ...USAGE_DATA_MESSAGES,
};

export type Lang = 'zh-CN' | 'en';

/** A text by code, translated when the answer's language is known (a param may be one, or a list). */
export interface Message {
  readonly code: string;
  readonly params?: MessageParams;
}

export type MessageParam = string | number | Message | readonly Message[];
export type MessageParams = Readonly<Record<string, MessageParam>>;

const LIST_SEPARATOR: Record<Lang, string> = { 'zh-CN': '；', en: '; ' };

function render(value: MessageParam, lang: Lang): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value))
    return (value as readonly Message[])
      .map((item) => translate(item.code, item.params, lang))
      .join(LIST_SEPARATOR[lang]);
  const message = value as Message;
  return translate(message.code, message.params, lang);
}

export function translate(code: string, params: MessageParams = {}, lang: Lang = 'zh-CN'): string {
  const template = MESSAGES[code]?.[lang] ?? code;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? render(params[name]!, lang) : whole,
  );
}

/** zh-CN unless the client prefers English (Accept-Language or the console's lang header). */
export function pickLang(acceptLanguage: string | undefined): Lang {
  if (!acceptLanguage) return 'zh-CN';
  const first = acceptLanguage.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en' : 'zh-CN';
}
