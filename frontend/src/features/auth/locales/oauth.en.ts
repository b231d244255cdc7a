import type { oauthZhCN } from './oauth.zh-cn';

export const oauthEn: typeof oauthZhCN = {
  oauth: {
    loginWith: 'Sign in with {{name}}',
    oidcName: 'OIDC',
    linuxdoName: 'Linux DO',
    bind: 'Bind',
    bindWechatTitle: 'Bind a WeChat account',
    bindOidc: 'OIDC',
    bindLinuxdo: 'Linux DO',
  },
};
