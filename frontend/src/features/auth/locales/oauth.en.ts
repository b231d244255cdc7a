import type { oauthZhCN } from './oauth.zh-cn';

export const oauthEn: typeof oauthZhCN = {
  oauth: {
    loginWith: 'Sign in with {{name}}',
    oidcDefaultName: 'OpenID Connect',
    bind: 'Bind',
    bindWechatTitle: 'Bind a WeChat account',
    bindOidc: 'OpenID Connect',
  },
};
