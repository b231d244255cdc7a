/** zh-CN texts of third-party sign-in and binding. */
export const oauthZhCN = {
  oauth: {
    loginWith: '使用 {{name}} 登录',
    oidcName: 'OIDC',
    linuxdoName: 'Linux DO',
    bind: '绑定',
    bindWechatTitle: '绑定微信账户',
    bindOidc: 'OIDC',
    bindLinuxdo: 'Linux DO',
  },
};
