/** zh-CN texts of the mail flows: email bind, reset confirmation. */
export const mailZhCN = {
  mail: {
    bind: '绑定邮箱',
    change: '更换邮箱',
    bindTitle: '绑定邮箱地址',
    emailPlaceholder: '输入邮箱地址',
    codePlaceholder: '输入验证码',
    sendCode: '获取验证码',
    bound: '邮箱账户绑定成功！',
    copyPassword: '复制新密码',
  },
};
