import type { chatZhCN } from './zh-cn';

export const chatEn: typeof chatZhCN = {
  chat: {
    frameTitle: 'Chat',
    redirecting: 'Redirecting...',
    loading: 'Loading, please wait...',
    linkBad: 'Chat link configuration error, please contact the administrator',
    linkMissing: 'Please contact the administrator to configure chat links',
    parseFailed: 'Failed to parse chat data',
    noEnabledToken: 'No enabled token is available, please confirm whether any token is enabled',
  },
};
