/** Server texts of mail and the human check (zh-CN in the wording of one-api and new-api where they have one). */
export const MAIL_MESSAGES: Readonly<Record<string, { 'zh-CN': string; en: string }>> = {
  'mail.email_taken': { 'zh-CN': '邮箱地址已被占用', en: 'This email address is already taken' },
  'mail.email_not_registered': {
    'zh-CN': '该邮箱地址未注册',
    en: 'No account uses this email address',
  },
  'mail.resend_too_soon': {
    'zh-CN': '发送过于频繁，请 {seconds} 秒后再试',
    en: 'A mail was just sent: please wait {seconds} seconds before asking again',
  },
  'mail.smtp_not_configured': {
    'zh-CN': '系统未配置 SMTP 服务器，无法发送邮件',
    en: 'The SMTP server is not configured: mail cannot be sent',
  },
  'mail.send_failed': {
    'zh-CN': '邮件发送失败，请检查 SMTP 设置或稍后重试',
    en: 'The mail could not be sent: check the SMTP settings or try again later',
  },
  'mail.server_address_required': {
    'zh-CN': '请先在系统设置中填写服务器地址',
    en: 'Set the server address in the system settings first',
  },
  'mail.reset_link_invalid': {
    'zh-CN': '重置链接非法或已过期',
    en: 'The reset link is invalid or expired',
  },
  'mail.verification_subject': {
    'zh-CN': '{system}邮箱验证邮件',
    en: '{system} email verification',
  },
  'mail.verification_body': {
    'zh-CN':
      '<p>您好，你正在进行{system}邮箱验证。</p><p>您的验证码为: <strong>{code}</strong></p><p>验证码 {minutes} 分钟内有效，如果不是本人操作，请忽略。</p>',
    en: '<p>Hello, you are verifying your email address for {system}.</p><p>Your verification code: <strong>{code}</strong></p><p>The code is valid for {minutes} minutes. If this was not you, ignore this mail.</p>',
  },
  'mail.reset_subject': { 'zh-CN': '{system}密码重置', en: '{system} password reset' },
  'mail.reset_body': {
    'zh-CN':
      '<p>您好，你正在进行{system}密码重置。</p><p>点击 <a href="{link}">此处</a> 进行密码重置。</p><p>如果链接无法点击，请尝试点击下面的链接或将其复制到浏览器中打开：<br> {link} </p><p>重置链接 {minutes} 分钟内有效，如果不是本人操作，请忽略。</p>',
    en: '<p>Hello, you asked to reset your {system} password.</p><p>Click <a href="{link}">here</a> to reset it.</p><p>If the link does not open, copy it into your browser:<br> {link} </p><p>The link is valid for {minutes} minutes. If this was not you, ignore this mail.</p>',
  },
  'turnstile.token_empty': { 'zh-CN': 'Turnstile token 为空', en: 'The Turnstile token is empty' },
  'turnstile.failed': {
    'zh-CN': 'Turnstile 校验失败，请刷新重试！',
    en: 'Turnstile verification failed, please refresh and try again',
  },
  'turnstile.unavailable': {
    'zh-CN': 'Turnstile 校验服务异常，请稍后重试',
    en: 'The Turnstile verification service did not answer, please try again later',
  },
};
