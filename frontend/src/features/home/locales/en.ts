import type { homeZhCN } from './zh-cn';

export const homeEn: typeof homeZhCN = {
  home: {
    welcome: 'Welcome to {{name}}',
    notice: 'Notice',
    systemInfo: 'System information',
    systemConfig: 'Configuration',
    name: 'Name: {{value}}',
    version: 'Version: {{value}}',
    startTime: 'Started: {{value}}',
    emailVerification: 'Email verification',
    githubOAuth: 'GitHub sign-in',
    wechatLogin: 'WeChat sign-in',
    turnstile: 'Turnstile human check',
    telegramOAuth: 'Telegram sign-in',
  },
  about: {
    empty:
      'The administrator has not set the about content yet; it can be set on the settings page (HTML and Markdown).',
    apiReference: 'API reference',
  },
};
