/** Refusals of the HTTP edge (body limits, content types, odd characters), zh-CN and en. */
export const HTTP_EDGE_MESSAGES: Readonly<Record<string, { 'zh-CN': string; en: string }>> = {
  'edge.body_too_large': { 'zh-CN': '请求体过大', en: 'The request body is too large' },
  'edge.json_only': {
    'zh-CN': '请求体必须是 JSON（Content-Type: application/json）',
    en: 'The request body must be JSON (Content-Type: application/json)',
  },
  'edge.too_deep': { 'zh-CN': '输入不合法：嵌套层级过深', en: 'Invalid input: nested too deeply' },
  'edge.too_many_values': {
    'zh-CN': '输入不合法：字段过多',
    en: 'Invalid input: too many fields',
  },
  'edge.string_too_long': {
    'zh-CN': '输入不合法：字符串过长',
    en: 'Invalid input: a string is too long',
  },
  'edge.bad_character': {
    'zh-CN': '输入不合法：包含不允许的字符',
    en: 'Invalid input: contains a character that is not allowed',
  },
  'edge.bad_query': {
    'zh-CN': '输入不合法：查询参数无效',
    en: 'Invalid input: bad query parameters',
  },
};
