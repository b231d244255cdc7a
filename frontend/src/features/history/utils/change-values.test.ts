import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { formatDateTime } from '@/utils/date-time';
import { formatChangeValue, type ValueContext } from './change-values';

const ctx = (kind: ValueContext['kind'], lang = 'zh-CN'): ValueContext => ({
  t: i18n.getFixedT(lang),
  formatQuota: (quota) => `$${(quota / 500_000).toFixed(2)}`,
  kind,
});

describe('formatChangeValue', () => {
  it('says statuses, times, never, flags and lists in words', () => {
    const token = ctx('token');
    expect(formatChangeValue(token, 'status', 1)).toBe('已启用');
    expect(formatChangeValue(token, 'expired_time', -1)).toBe('永不过期');
    expect(formatChangeValue(token, 'expired_time', 1_700_000_000)).toBe(
      formatDateTime(1_700_000_000),
    );
    expect(formatChangeValue(token, 'unlimited_quota', true)).toBe('是');
    expect(formatChangeValue(token, 'remain_quota', 500_000)).toBe('$1.00');
    expect(formatChangeValue(token, 'allow_ips', ['10.0.0.1', '10.0.0.2'])).toBe(
      '10.0.0.1, 10.0.0.2',
    );
    expect(formatChangeValue(ctx('channel'), 'status', 3)).toBe('自动禁用');
    expect(formatChangeValue(ctx('channel'), 'type', 14)).toBe('Anthropic Claude');
    expect(formatChangeValue(ctx('redemption', 'en'), 'status', 3)).toBe('Used');
    expect(formatChangeValue(ctx('token', 'en'), 'expired_time', -1)).toBe('Never expires');
    expect(formatChangeValue(ctx('option'), 'LogConsumeEnabled', 'false')).toBe('否');
  });
});
