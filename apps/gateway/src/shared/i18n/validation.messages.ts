/**
 * Texts of DTO validation failures (apps/gateway/src/shared/validation.pipe.ts), zh-CN and en.
 * `{field}` is a field's display name (a `validation.field.*` label, or `validation.field` around
 * its JSON path); the other placeholders are the constraint's arguments.
 */
export const VALIDATION_MESSAGES: Readonly<Record<string, { 'zh-CN': string; en: string }>> = {
  // How a field is named: the console's label where it has one, otherwise the JSON path.
  'validation.field': { 'zh-CN': '字段 {name}', en: '{name}' },
  'validation.field.username': { 'zh-CN': '用户名', en: 'Username' },
  'validation.field.password': { 'zh-CN': '密码', en: 'Password' },
  'validation.field.password2': { 'zh-CN': '确认密码', en: 'Confirm password' },
  'validation.field.original_password': { 'zh-CN': '当前密码', en: 'Current password' },
  'validation.field.display_name': { 'zh-CN': '显示名称', en: 'Display name' },
  'validation.field.email': { 'zh-CN': '邮箱地址', en: 'Email address' },
  'validation.field.verification_code': { 'zh-CN': '验证码', en: 'Verification code' },
  'validation.field.aff_code': { 'zh-CN': '邀请码', en: 'Invitation code' },
  'validation.field.group': { 'zh-CN': '分组', en: 'Group' },
  'validation.field.quota': { 'zh-CN': '额度', en: 'Quota' },
  'validation.field.remark': { 'zh-CN': '备注', en: 'Remark' },
  'validation.field.name': { 'zh-CN': '名称', en: 'Name' },
  'validation.field.notify_type': { 'zh-CN': '通知方式', en: 'Notify type' },
  'validation.field.quota_warning_threshold': { 'zh-CN': '额度提醒阈值', en: 'Warning threshold' },
  'validation.field.webhook_url': { 'zh-CN': 'Webhook 地址', en: 'Webhook URL' },
  'validation.field.webhook_secret': { 'zh-CN': 'Webhook 密钥', en: 'Webhook secret' },
  'validation.field.notification_email': { 'zh-CN': '通知邮箱', en: 'Notification email' },
  'validation.field.accept_admin_alerts': { 'zh-CN': '接收渠道告警', en: 'Channel alerts' },
  /** A rule declared with `{ each: true }`: it applies to every item of an array. */
  'validation.each': { 'zh-CN': '{field} 中的每一项', en: 'Each value in {field}' },

  'validation.required': { 'zh-CN': '{field} 不能为空', en: '{field} is required' },
  'validation.not_allowed': {
    'zh-CN': '不允许的字段 {name}',
    en: 'The field {name} is not allowed',
  },
  'validation.is_string': { 'zh-CN': '{field} 必须是字符串', en: '{field} must be a string' },
  'validation.is_int': { 'zh-CN': '{field} 必须是整数', en: '{field} must be an integer' },
  'validation.is_number': { 'zh-CN': '{field} 必须是数字', en: '{field} must be a number' },
  'validation.is_boolean': {
    'zh-CN': '{field} 必须是 true 或 false',
    en: '{field} must be true or false',
  },
  'validation.is_array': { 'zh-CN': '{field} 必须是数组', en: '{field} must be an array' },
  'validation.is_object': { 'zh-CN': '{field} 必须是对象', en: '{field} must be an object' },
  'validation.body_not_object': {
    'zh-CN': '请求内容必须是 JSON 对象',
    en: 'The request must be a JSON object',
  },
  'validation.max_length': {
    'zh-CN': '{field} 长度不能超过 {max}',
    en: '{field} must be at most {max} characters long',
  },
  'validation.min_length': {
    'zh-CN': '{field} 长度不能少于 {min}',
    en: '{field} must be at least {min} characters long',
  },
  'validation.length': {
    'zh-CN': '{field} 长度必须在 {min} 到 {max} 之间',
    en: '{field} must be {min} to {max} characters long',
  },
  'validation.min': {
    'zh-CN': '{field} 不能小于 {min}',
    en: '{field} must not be less than {min}',
  },
  'validation.max': {
    'zh-CN': '{field} 不能大于 {max}',
    en: '{field} must not be greater than {max}',
  },
  'validation.is_in': {
    'zh-CN': '{field} 只能是 {values} 之一',
    en: '{field} must be one of {values}',
  },
  'validation.is_email': {
    'zh-CN': '{field} 不是合法的邮箱地址',
    en: '{field} must be a valid email address',
  },
  'validation.is_url': { 'zh-CN': '{field} 不是合法的网址', en: '{field} must be a valid URL' },
  'validation.matches': { 'zh-CN': '{field} 格式不正确', en: '{field} has an invalid format' },
  'validation.array_max_size': {
    'zh-CN': '{field} 最多包含 {max} 项',
    en: '{field} must contain at most {max} items',
  },
  'validation.array_min_size': {
    'zh-CN': '{field} 至少包含 {min} 项',
    en: '{field} must contain at least {min} items',
  },
  /** Any rule without a text of its own. */
  'validation.invalid': { 'zh-CN': '{field} 不合法', en: '{field} is invalid' },
};
