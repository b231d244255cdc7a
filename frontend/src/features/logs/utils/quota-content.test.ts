import { LogType } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { formatQuota } from '@/utils/format-quota';
import { quotaContent } from './quota-content';

const dollars = (quota: number) =>
  formatQuota(quota, { displayInCurrency: true, quotaPerUnit: 500_000 });
const units = (quota: number) =>
  formatQuota(quota, { displayInCurrency: false, quotaPerUnit: 500_000 });

describe('quotaContent', () => {
  it.each([
    [LogType.TopUp, '充值 50000000 额度', '充值 $100.00 额度'],
    [LogType.TopUp, '通过兑换码充值 250000 额度（ab12）', '通过兑换码充值 $0.50 额度（ab12）'],
    [LogType.System, '新用户注册赠送 206 额度', '新用户注册赠送 $0.000412 额度'],
    [LogType.System, '邀请额度划转 500000 到余额', '邀请额度划转 $1.00 到余额'],
    [LogType.System, 'root 账户初始额度 100000000', 'root 账户初始额度 $200.00'],
    [
      LogType.Manage,
      '管理员将用户额度从 0 修改为 -500000',
      '管理员将用户额度从 $0.00 修改为 -$1.00',
    ],
  ])('%i: %s → %s', (type, content, shown) => {
    expect(quotaContent({ type, content }, dollars)).toBe(shown);
  });

  it('writes quota units with separators when the site shows quota', () => {
    expect(quotaContent({ type: LogType.TopUp, content: '充值 50000000 额度' }, units)).toBe(
      '充值 50,000,000 额度',
    );
  });

  it('leaves other rows and other numbers alone', () => {
    const content = '任务 42 退款 1000 额度';
    expect(quotaContent({ type: LogType.Consume, content }, dollars)).toBe(content);
    expect(quotaContent({ type: LogType.TopUp, content: '充值成功 3 次' }, dollars)).toBe(
      '充值成功 3 次',
    );
  });
});
