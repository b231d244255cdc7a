/** Texts of third-party sign-in and binding (issue 12), zh-CN in the anchors' wording. */
export const OAUTH_MESSAGES: Readonly<Record<string, { 'zh-CN': string; en: string }>> = {
  'oauth.github_disabled': {
    'zh-CN': '管理员未开启通过 GitHub 登录以及注册',
    en: 'The administrator has not enabled sign-in with GitHub',
  },
  'oauth.wechat_disabled': {
    'zh-CN': '管理员未开启通过微信登录以及注册',
    en: 'The administrator has not enabled sign-in with WeChat',
  },
  'oauth.telegram_disabled': {
    'zh-CN': '管理员未开启通过 Telegram 登录以及注册',
    en: 'The administrator has not enabled sign-in with Telegram',
  },
  'oauth.oidc_disabled': {
    'zh-CN': '管理员未开启通过 OpenID Connect 登录以及注册',
    en: 'The administrator has not enabled sign-in with OpenID Connect',
  },
  'oauth.oidc_incomplete': {
    'zh-CN': '请先填写 OpenID Connect 的发现地址、Client ID 和 Client Secret',
    en: 'Fill in the OpenID Connect discovery URL, client id and client secret first',
  },
  'oauth.state_invalid': {
    'zh-CN': '登录状态无效或已过期，请重新发起登录',
    en: 'The sign-in state is invalid or expired, please start the sign-in again',
  },
  'oauth.code_required': { 'zh-CN': '缺少授权码', en: 'The authorization code is missing' },
  'oauth.code_used': {
    'zh-CN': '授权码已使用，请重新发起登录',
    en: 'This authorization code was used already, please start the sign-in again',
  },
  'oauth.github_failed': {
    'zh-CN': '无法通过 GitHub 验证身份，请稍后重试',
    en: 'Could not verify the identity with GitHub, please try again',
  },
  'oauth.wechat_code_empty': {
    'zh-CN': '请输入微信验证码',
    en: 'Please enter the WeChat verification code',
  },
  'oauth.wechat_code_invalid': {
    'zh-CN': '验证码错误或已过期',
    en: 'The verification code is wrong or expired',
  },
  'oauth.wechat_failed': {
    'zh-CN': '无法连接微信服务器，请稍后重试',
    en: 'Could not reach the WeChat server, please try again later',
  },
  'oauth.telegram_invalid': {
    'zh-CN': 'Telegram 登录数据校验失败',
    en: 'The Telegram sign-in data failed verification',
  },
  'oauth.telegram_expired': {
    'zh-CN': 'Telegram 登录数据已过期，请重新登录',
    en: 'The Telegram sign-in data has expired, please sign in again',
  },
  'oauth.oidc_failed': {
    'zh-CN': '无法通过 OpenID Connect 验证身份，请稍后重试',
    en: 'Could not verify the identity with the OpenID Connect provider, please try again',
  },
  'oauth.github_taken': {
    'zh-CN': '该 GitHub 账户已被绑定',
    en: 'This GitHub account is already bound',
  },
  'oauth.wechat_taken': {
    'zh-CN': '该微信账号已被绑定',
    en: 'This WeChat account is already bound',
  },
  'oauth.telegram_taken': {
    'zh-CN': '该 Telegram 账户已被绑定',
    en: 'This Telegram account is already bound',
  },
  'oauth.oidc_taken': {
    'zh-CN': '该 OpenID Connect 账户已被绑定',
    en: 'This OpenID Connect account is already bound',
  },
  'oauth.provider_already_bound': {
    'zh-CN': '当前账户已绑定另一个 {provider} 账户',
    en: 'This account is already bound to another {provider} account',
  },
  'oauth.external_id_invalid': {
    'zh-CN': '第三方账户标识无效',
    en: 'Invalid third-party account id',
  },
};
