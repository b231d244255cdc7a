import type { mailZhCN } from './zh-cn';

export const mailEn: typeof mailZhCN = {
  mail: {
    bind: 'Bind email',
    change: 'Change email',
    bindTitle: 'Bind an email address',
    emailPlaceholder: 'Email address',
    codePlaceholder: 'Verification code',
    sendCode: 'Get code',
    bound: 'Email bound!',
    copyPassword: 'Copy the new password',
  },
};
