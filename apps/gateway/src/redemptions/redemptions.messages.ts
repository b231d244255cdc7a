/** Server texts of redemption codes and the wallet (registered by server-messages.ts). */
export const REDEMPTION_MESSAGES = {
  'redemption.not_found': { 'zh-CN': '兑换码不存在', en: 'Redemption code not found' },
  'redemption.already_exists': {
    'zh-CN': '兑换码已存在',
    en: 'The redemption code already exists',
  },
  'redemption.name_required': { 'zh-CN': '兑换码名称不能为空', en: 'The name is required' },
  'redemption.name_too_long': {
    'zh-CN': '兑换码名称长度必须在1-20之间',
    en: 'The name must be 1 to 20 characters',
  },
  'redemption.quota_invalid': {
    'zh-CN': '额度必须是大于 0 的整数',
    en: 'The quota must be an integer greater than 0',
  },
  'redemption.count_invalid': {
    'zh-CN': '兑换码个数必须在 1 到 100 之间',
    en: 'The count must be between 1 and 100',
  },
  'redemption.not_editable': {
    'zh-CN': '只能编辑未使用的兑换码',
    en: 'Only unused codes can be edited',
  },
  'redemption.status_invalid': { 'zh-CN': '无效的兑换码状态', en: 'Invalid code status' },
  'redemption.already_used': { 'zh-CN': '该兑换码已被使用', en: 'This code has already been used' },
  'redemption.disabled': { 'zh-CN': '该兑换码已被禁用', en: 'This code is disabled' },
  'redemption.invalid_code': { 'zh-CN': '无效的兑换码', en: 'Invalid redemption code' },
  'redemption.key_required': { 'zh-CN': '请输入兑换码！', en: 'Please enter a redemption code' },
} as const;
