/** Server texts of channel management (one-api's and new-api's wording where they have one). */
export const CHANNEL_MESSAGES: Readonly<Record<string, { 'zh-CN': string; en: string }>> = {
  'channel.not_found': {
    'zh-CN': '渠道未找到，请刷新页面后重试。',
    en: 'Channel not found, please refresh the page and try again.',
  },
  'channel.name_key_required': {
    'zh-CN': '请填写渠道名称和渠道密钥！',
    en: 'Please fill in the channel name and key',
  },
  'channel.models_required': {
    'zh-CN': '请至少选择一个模型！',
    en: 'Please select at least one model',
  },
  'channel.model_mapping_invalid': {
    'zh-CN': '模型映射必须是合法的 JSON 格式！',
    en: 'The model mapping must be valid JSON',
  },
  'channel.status_code_mapping_invalid': {
    'zh-CN': '状态码复写必须是合法的 JSON 格式！',
    en: 'The status code mapping must be valid JSON',
  },
  'channel.setting_invalid': {
    'zh-CN': '渠道额外设置必须是合法的 JSON 格式！',
    en: 'The channel settings must be a valid JSON object',
  },
  'channel.param_override_invalid': {
    'zh-CN': '参数覆盖必须是合法的 JSON 对象（不超过 10000 个字符）！',
    en: 'The parameter override must be a valid JSON object (at most 10000 characters)',
  },
  'channel.param_override_protected': {
    'zh-CN': '参数覆盖不能修改 {keys}：计费与响应格式取决于客户端的请求',
    en: 'The parameter override cannot set {keys}: billing and the answer format follow the client request',
  },
  'channel.region_invalid': {
    'zh-CN': '部署地区必须是合法的 JSON 格式！',
    en: 'The region must be a valid JSON object',
  },
  'channel.priority_too_low': {
    'zh-CN': '优先级不能小于 {min}',
    en: 'The priority cannot be lower than {min}',
  },
  'channel.type_unknown': { 'zh-CN': '未知的渠道类型', en: 'Unknown channel type' },
  'channel.base_url_invalid': {
    'zh-CN': 'Base URL 必须以 http:// 或 https:// 开头',
    en: 'The base URL must start with http:// or https://',
  },
  'channel.key_invalid': {
    'zh-CN': '密钥格式不正确，请按照 {format} 的格式填写',
    en: 'Wrong key format: expected {format}',
  },
  'channel.key_required_for_type_change': {
    'zh-CN': '更改渠道类型时请重新填写密钥',
    en: 'Please enter the key again when changing the channel type',
  },
  'channel.key_required_for_target_change': {
    'zh-CN': '修改渠道类型、Base URL 或其他参数时请重新填写密钥（仅超级管理员可沿用已保存的密钥）',
    en: 'Please enter the key again when changing the channel type, base URL or other parameter (only root may keep the stored key)',
  },
  'channel.status_invalid': { 'zh-CN': '无效的渠道状态', en: 'Invalid channel status' },
  'channel.already_exists': { 'zh-CN': '渠道已存在', en: 'The channel already exists' },
  'channel.balance_invalid': {
    'zh-CN': '余额数据不合法',
    en: 'Invalid balance value',
  },
  'channel.balance_unsupported': {
    'zh-CN': '该渠道类型不支持查询余额',
    en: 'This channel type has no balance API',
  },
  'channel.balance_failed': {
    'zh-CN': '查询余额失败：{detail}',
    en: 'Balance query failed: {detail}',
  },
  'channel.test_failed': { 'zh-CN': '测试失败：{detail}', en: 'Test failed: {detail}' },
  'channel.test_too_slow': {
    'zh-CN': '响应时间 {elapsed}s 超过阈值 {threshold}s',
    en: 'Response time {elapsed}s exceeds the threshold of {threshold}s',
  },
  'channel.test_unsupported': {
    'zh-CN': '暂不支持测试该类型的渠道',
    en: 'Testing this channel type is not supported yet',
  },
  'channel.fetch_models_unsupported': {
    'zh-CN': '仅支持 OpenAI 接口格式',
    en: 'Only the OpenAI API format is supported',
  },
  'channel.fetch_models_key_required': { 'zh-CN': '请填写密钥', en: 'Please enter the key' },
  'channel.fetch_models_failed': {
    'zh-CN': '获取模型列表失败：{detail}',
    en: 'Failed to fetch the model list: {detail}',
  },
  'channel.ids_required': {
    'zh-CN': '请先选择要删除的通道！',
    en: 'Please select the channels to delete first',
  },
};
