import type { walletZhCN } from './zh-cn';

export const walletEn: typeof walletZhCN = {
  wallet: {
    title: 'Wallet',
    balance: 'Balance',
    usedQuota: 'Used so far',
    requestCount: 'Requests',
    redeemTitle: 'Redeem a code',
    codeLabel: 'Redemption code',
    codePlaceholder: 'Enter a redemption code',
    redeem: 'Redeem',
    getCode: 'Get a code',
    enterCode: 'Please enter a redemption code!',
    redeemed: 'Redeemed! Quota added: {{amount}}',
    requestFailed: 'Request failed',
    noTopUpLink: 'The super admin has not set a top-up link!',
  },
};
