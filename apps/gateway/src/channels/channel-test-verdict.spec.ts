import type { AttemptFailure } from '@tollgate/relay';
import { judgeTest, type TestRules } from './channel-test-verdict';
import { registerMessages } from '../shared/i18n/messages';
import { CHANNEL_MESSAGES } from './channels.messages';

registerMessages(CHANNEL_MESSAGES);

const RULES: TestRules = {
  autoDisable: true,
  autoEnable: true,
  disableThresholdMs: 5000,
  disableKeywords: ['You exceeded your current quota'],
};
const ENABLED = { type: 1, autoBan: true, status: 1 };
const http = (status: number, message: string, more: { type?: string; code?: string } = {}) =>
  ({ kind: 'http', status, message, type: more.type ?? '', code: more.code ?? '' }) as const;
const failed = (failure: AttemptFailure) => ({ ok: false as const, elapsedMs: 80, failure });

describe('judgeTest', () => {
  it.each<[AttemptFailure, number, boolean]>([
    [http(401, 'Incorrect API key'), 1, true],
    [http(403, 'forbidden'), 24, true],
    [http(403, 'model not allowed'), 1, false],
    [http(429, 'Rate limit reached', { code: 'rate_limit_exceeded' }), 1, false],
    [http(429, 'quota', { type: 'insufficient_quota' }), 1, true],
    [http(400, 'x', { code: 'account_deactivated' }), 1, true],
    [http(500, 'The server had an error'), 1, false],
    [http(400, 'YOU EXCEEDED YOUR CURRENT QUOTA, please check'), 1, true],
    [{ kind: 'network', message: 'connect ECONNREFUSED' }, 1, false],
    [{ kind: 'timeout', message: 'timeout after 30s' }, 1, false],
  ])('%j on type %i disables: %s', (failure, type, disables) => {
    const verdict = judgeTest(failed(failure), { ...ENABLED, type }, RULES);
    expect(verdict).toMatchObject({ success: false, message: failure.message });
    expect(verdict.action?.kind === 'disable').toBe(disables);
  });

  it('uses the keyword option, not a fixed list', () => {
    const failure = http(402, 'Balance exhausted');
    expect(judgeTest(failed(failure), ENABLED, RULES).action).toBeUndefined();
    expect(
      judgeTest(failed(failure), ENABLED, { ...RULES, disableKeywords: ['balance exhausted'] })
        .action,
    ).toEqual({ kind: 'disable', reason: '测试失败：status 402: Balance exhausted' });
  });

  it('a disable names the tested model when given', () => {
    const failure = http(401, 'Incorrect API key');
    expect(judgeTest(failed(failure), ENABLED, RULES, 'zh-CN', 'gpt-4o').action).toEqual({
      kind: 'disable',
      reason: '测试失败：status 401: Incorrect API key',
      model: 'gpt-4o',
    });
    const slow = { ok: true as const, elapsedMs: 6200 };
    expect(judgeTest(slow, ENABLED, RULES, 'zh-CN', 'gpt-4o').action).toMatchObject({
      kind: 'disable',
      model: 'gpt-4o',
    });
  });

  it('never disables without the option or the channel’s auto_ban', () => {
    const dead = failed(http(401, 'Incorrect API key'));
    expect(judgeTest(dead, ENABLED, { ...RULES, autoDisable: false }).action).toBeUndefined();
    expect(judgeTest(dead, { ...ENABLED, autoBan: false }, RULES).action).toBeUndefined();
  });

  it('an answer slower than the threshold fails the test (and disables); 0 = no limit', () => {
    const slow = { ok: true as const, elapsedMs: 6200 };
    expect(judgeTest(slow, ENABLED, RULES)).toEqual({
      success: false,
      message: '响应时间 6.20s 超过阈值 5s',
      action: { kind: 'disable', reason: '测试失败：响应时间 6.20s 超过阈值 5s' },
    });
    expect(judgeTest(slow, ENABLED, RULES, 'en')).toEqual({
      success: false,
      message: 'Response time 6.20s exceeds the threshold of 5s',
      action: {
        kind: 'disable',
        reason: 'Test failed: Response time 6.20s exceeds the threshold of 5s',
      },
    });
    expect(judgeTest(slow, ENABLED, { ...RULES, disableThresholdMs: 0 })).toEqual({
      success: true,
      message: '',
    });
  });

  it('a pass re-enables only a channel the system disabled, and only with the option', () => {
    const pass = { ok: true as const, elapsedMs: 80 };
    expect(judgeTest(pass, { ...ENABLED, status: 3 }, RULES).action).toEqual({ kind: 'enable' });
    expect(judgeTest(pass, { ...ENABLED, status: 2 }, RULES).action).toBeUndefined();
    expect(judgeTest(pass, ENABLED, RULES).action).toBeUndefined();
    expect(
      judgeTest(pass, { ...ENABLED, status: 3 }, { ...RULES, autoEnable: false }).action,
    ).toBeUndefined();
  });
});
