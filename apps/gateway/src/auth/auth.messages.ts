import type { MessageTable } from '../shared/i18n/message-table';

/** Texts of signing in, sessions, registration and the email checks, zh-CN in the wording of one-api and new-api. */
export const AUTH_MESSAGES: MessageTable = {
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
};
