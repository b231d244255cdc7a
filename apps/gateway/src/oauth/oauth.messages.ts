/** Texts of third-party sign-in and binding, zh-CN in the wording of one-api and new-api. */
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
    'zh-CN': '管理员未开启通过 OIDC 登录以及注册',
    en: 'The administrator has not enabled sign-in with OIDC',
  },
  'oauth.oidc_incomplete': {
    'zh-CN': '无法启用 OIDC 登录，请先填入 Client ID、Client Secret 以及 Well-Known URL！',
    en: 'Cannot enable OIDC: fill in the client id, client secret and the Well-Known URL first',
  },
  'oauth.linuxdo_disabled': {
    'zh-CN': '管理员未开启通过 Linux DO 登录以及注册',
    en: 'The administrator has not enabled sign-in with Linux DO',
  },
  'option.linuxdo_incomplete': {
    'zh-CN': '无法启用 LinuxDO OAuth，请先填入 LinuxDO Client Id 以及 LinuxDO Client Secret！',
    en: 'Cannot enable LinuxDO OAuth: fill in the LinuxDO Client Id and Client Secret first',
  },
  'oauth.provider_error': {
    'zh-CN': '授权失败：{message}',
    en: 'Authorization failed: {message}',
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
    'zh-CN': '获取 OIDC 配置失败，请检查网络状况和 Well-Known URL 是否正确',
    en: 'Could not read the OIDC configuration: check the network and the Well-Known URL',
  },
  'oauth.oidc_unreachable': {
    'zh-CN': '无法连接至 OIDC 服务器，请稍后重试！',
    en: 'Cannot reach the OIDC server, please try again later',
  },
  'oauth.oidc_token_failed': {
    'zh-CN': 'OIDC 获取 Token 失败，请检查设置！',
    en: 'OIDC: getting the token failed, please check the settings',
  },
  'oauth.oidc_userinfo_failed': {
    'zh-CN': 'OIDC 获取用户信息失败！请检查设置！',
    en: 'OIDC: getting the user info failed, please check the settings',
  },
  'oauth.oidc_userinfo_empty': {
    'zh-CN': 'OIDC 获取用户信息为空！请检查设置！',
    en: 'OIDC: the user info is empty, please check the settings',
  },
  'oauth.linuxdo_unreachable': {
    'zh-CN': '无法连接 Linux DO 服务器，请稍后重试',
    en: 'failed to connect to Linux DO server',
  },
  'oauth.linuxdo_token_failed': {
    'zh-CN': '获取 Linux DO 访问令牌失败：{message}',
    en: 'failed to get access token: {message}',
  },
  'oauth.linuxdo_user_invalid': {
    'zh-CN': 'Linux DO 返回的用户信息无效',
    en: 'invalid user info returned',
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
    'zh-CN': '该 OIDC 账户已被绑定',
    en: 'This OIDC account is already bound',
  },
  'oauth.linuxdo_taken': {
    'zh-CN': '该 Linux DO 账户已被绑定',
    en: 'This Linux DO account is already bound',
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
