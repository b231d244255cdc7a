import type { setupZhCN } from './zh-cn';

export const setupEn: typeof setupZhCN = {
  setup: {
    title: 'System setup',
    offer: 'The system is not set up yet: the administrator still has the default password.',
    start: 'Set up now',
    adminSection: 'Administrator account',
    username: 'Username',
    usernamePlaceholder: "The administrator's username",
    password: 'Password',
    passwordPlaceholder: "The administrator's password",
    confirmPassword: 'Confirm password',
    confirmPlaceholder: 'Repeat the password',
    enterUsername: "Please enter the administrator's username",
    passwordTooShort: 'The password must be at least 8 characters',
    passwordsDiffer: 'The two passwords do not match',
    usageMode: 'Usage mode',
    usageModeHint: 'Can be changed after setup',
    external: 'Public service',
    externalHint: 'The default: serving many users.',
    self: 'Self-use',
    selfHint: 'For personal use; no model prices needed.',
    demo: 'Demo site',
    demoHint: 'For showing what the system does.',
    sqliteWarning:
      'You are using the embedded SQLite storage. In a container, map the data directory to persistent storage, or all data is lost when the container restarts!',
    submit: 'Set up the system',
    done: 'System set up: sign in with the new administrator account',
    alreadyDone: 'The system is already set up',
  },
};
