import type { MessageTable } from './message-table';

/** Texts any feature may answer with: bad input, not found, internal error, busy. */
export const COMMON_MESSAGES: MessageTable = {
  'common.invalid_params': { 'zh-CN': '无效的参数', en: 'Invalid parameters' },
  'common.invalid_input': { 'zh-CN': '输入不合法：{detail}', en: 'Invalid input: {detail}' },
  'common.not_found': { 'zh-CN': '资源不存在', en: 'Not found' },
  'common.internal_error': {
    'zh-CN': '服务器内部错误，请联系管理员！',
    en: 'Internal server error, please contact the administrator',
  },
  'common.too_many_requests': {
    'zh-CN': '请求次数过多，请稍后再试！',
    en: 'Too many requests, please try again later',
  },
  'common.busy': { 'zh-CN': '系统繁忙，请稍后再试', en: 'The system is busy, please try again' },
};
