import { within } from '@testing-library/react';
import type { LogDto } from '@tollgate/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { logFixture } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, rootUser } from '@/test/render';
import { LogDetails } from './log-details';

const consumption = (other: Record<string, unknown>) =>
  logFixture({
    type: 2,
    content: '',
    model_name: 'gpt-4o-mini',
    other: JSON.stringify({ model_ratio: 0.075, completion_ratio: 4, group_ratio: 1, ...other }),
  });

/** The lines of the details cell, top to bottom. */
function linesOf(log: LogDto, currency = true) {
  mockApi({});
  const { container } = renderWithProviders(
    <div data-testid="details">
      <LogDetails log={log} admin />
    </div>,
    { user: rootUser, status: { display_in_currency: currency } },
  );
  const cell = within(container).getByTestId('details');
  return Array.from(cell.querySelectorAll('p'), (line) => line.textContent);
}

describe('log details: the output ceiling', () => {
  afterEach(async () => {
    await i18n.changeLanguage('zh-CN');
  });

  it('adds nothing to a row without ceiling fields', () => {
    expect(linesOf(consumption({}))).toEqual(['模型倍率 0.075，补全倍率 4，分组倍率 1']);
  });

  it('says the ceiling was lowered and by which limit', () => {
    const lowered = (lowered_by: string) =>
      linesOf(consumption({ lowered_ceiling: 512, lowered_by }))[1];
    expect(lowered('user_quota')).toBe('输出上限降至 512 tokens（受用户余额限制）');
    expect(lowered('token_quota')).toBe('输出上限降至 512 tokens（受令牌额度限制）');
    expect(lowered('token_budget')).toBe('输出上限降至 512 tokens（受令牌周期预算限制）');
    expect(lowered('user_budget')).toBe('输出上限降至 512 tokens（受用户周期预算限制）');
    // A limit this console does not know yet is not named.
    expect(lowered('moon_phase')).toBe('输出上限降至 512 tokens（受可用额度限制）');
  });

  it('shows the overrun with the quota formatter, a cent fraction kept', () => {
    expect(linesOf(consumption({ overrun: 5_000 }))[1]).toBe('超出预扣 $0.01，已计入欠费');
    expect(linesOf(consumption({ overrun: 200 }))[1]).toBe('超出预扣 $0.0004，已计入欠费');
    expect(linesOf(consumption({ overrun: 25_000 }), false)[1]).toBe('超出预扣 25,000，已计入欠费');
  });

  it('says when the upstream ignored its ceiling and when the stream was cut', () => {
    expect(
      linesOf(
        consumption({
          lowered_ceiling: 100,
          lowered_by: 'user_quota',
          overrun: 5_000,
          ceiling_ignored: true,
          stream_cut: true,
          reasoning_tokens: 5,
        }),
      ),
    ).toEqual([
      '模型倍率 0.075，补全倍率 4，分组倍率 1',
      '推理 5 tokens（按补全计费）',
      '输出上限降至 100 tokens（受用户余额限制）',
      '超出预扣 $0.01，已计入欠费',
      '上游未遵守输出上限',
      '流式输出达到预扣额度，已截断',
    ]);
  });

  it('names the members the channel parameter override set (names only, strings only)', () => {
    expect(linesOf(consumption({ param_override: ['temperature', 'top_p', 3] }))[1]).toBe(
      '渠道参数覆盖：temperature, top_p',
    );
    expect(linesOf(consumption({ param_override: 'temperature' }))).toHaveLength(1);
  });

  it('says which model was asked for when a fallback model answered, and why', async () => {
    const moved = consumption({ requested_model: 'gpt-4o', fallback_reason: 'context_window' });
    expect(linesOf(moved)[1]).toBe(
      '模型降级：请求 gpt-4o → 由 gpt-4o-mini 回答（提示超出上下文窗口）',
    );
    await i18n.changeLanguage('en');
    expect(linesOf(consumption({ requested_model: 'gpt-4o', fallback_reason: 'failed' }))[1]).toBe(
      'Fallback: requested gpt-4o → answered by gpt-4o-mini (every channel failed)',
    );
  });

  it('reads ceiling fields on consumption rows only', () => {
    const topUp = logFixture({ type: 1, other: JSON.stringify({ stream_cut: true, overrun: 9 }) });
    expect(linesOf(topUp)).toEqual(['通过兑换码充值 $1.00']);
  });

  it('speaks English', async () => {
    await i18n.changeLanguage('en');
    expect(
      linesOf(
        consumption({
          lowered_ceiling: 256,
          lowered_by: 'token_budget',
          overrun: 5_000,
          ceiling_ignored: true,
          stream_cut: true,
        }),
      ).slice(1),
    ).toEqual([
      "Output ceiling lowered to 256 tokens (limited by the token's budget)",
      'Charged $0.01 past its reservation (a debt if unpaid)',
      'The upstream ignored its output ceiling',
      'Stream cut at its reservation',
    ]);
    expect(linesOf(consumption({ lowered_ceiling: 8, lowered_by: 'x' }))[1]).toBe(
      'Output ceiling lowered to 8 tokens (limited by what was left)',
    );
  });
});
