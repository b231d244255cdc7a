/** Wallet page texts (spec 001 §2, §5, §8); spread into the main zh-CN file. */
export const walletZhCN = {
  wallet: {
    title: '钱包',
    balance: '当前余额',
    usedQuota: '历史消耗',
    requestCount: '请求次数',
    redeemTitle: '兑换余额',
    codeLabel: '兑换码',
    codePlaceholder: '请输入兑换码',
    redeem: '兑换',
    getCode: '获取兑换码',
    enterCode: '请输入兑换码！',
    redeemed: '兑换成功！增加额度：{{amount}}',
    requestFailed: '请求失败',
    noTopUpLink: '超级管理员未设置充值链接！',
  },
};
