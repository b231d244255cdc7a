/** Dashboard data texts. */
export const USAGE_DATA_MESSAGES: Readonly<Record<string, { 'zh-CN': string; en: string }>> = {
  'data.span_too_long': {
    'zh-CN': '时间跨度不能超过 1 个月',
    en: 'The time span cannot exceed one month',
  },
};
