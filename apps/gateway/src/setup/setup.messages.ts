/** Texts of new-api's first-run wizard (its controller/setup.go), zh-CN in its wording. */
export const SETUP_MESSAGES: Readonly<Record<string, { 'zh-CN': string; en: string }>> = {
  'setup.done': { 'zh-CN': '系统已经初始化完成', en: 'The system is already initialized' },
  'setup.password_mismatch': {
    'zh-CN': '两次输入的密码不一致',
    en: 'The two passwords do not match',
  },
  'setup.password_too_short': {
    'zh-CN': '密码长度至少为8个字符',
    en: 'The password must be at least 8 characters',
  },
  'setup.completed': { 'zh-CN': '系统初始化成功', en: 'System initialized' },
};
