/** Home page (notice, system information) and about page texts. */
export const homeZhCN = {
  home: {
    welcome: '欢迎使用 {{name}}',
    notice: '公告',
    systemInfo: '系统信息',
    systemConfig: '系统配置',
    name: '名称：{{value}}',
    version: '版本：{{value}}',
    startTime: '启动时间：{{value}}',
    emailVerification: '邮箱验证',
    githubOAuth: 'GitHub 身份验证',
    wechatLogin: '微信身份验证',
    turnstile: 'Turnstile 用户校验',
    telegramOAuth: 'Telegram 身份验证',
  },
  about: {
    empty: '管理员暂未设置关于内容，可在设置页面设置，支持 HTML 与 Markdown。',
    apiReference: 'API 参考',
  },
};
