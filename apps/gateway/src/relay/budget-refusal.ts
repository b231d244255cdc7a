import type { RelayError } from '@tollgate/relay';
import type { BudgetPeriod } from '@tollgate/domain';
import type { BudgetRefusal } from '../billing/balance-terms';
import type { Lang } from '../shared/i18n/messages';
import { relayError } from './relay-http';
import { defaultTimeZone } from '../billing/time-zone';

const PERIOD_NAMES: Readonly<Record<Lang, Readonly<Record<BudgetPeriod, string>>>> = {
  'zh-CN': { day: '每日', week: '每周', month: '每月' },
  en: { day: 'daily', week: 'weekly', month: 'monthly' },
};

/** The server's zone, read once: the reset times are told in it (docs/budgets.md). */
const SERVER_ZONE = defaultTimeZone();
const RESET_FORMAT = new Intl.DateTimeFormat('sv-SE', {
  timeZone: SERVER_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** `2026-11-26 00:00:00 Asia/Shanghai`: the reset in the server's zone, the zone named. */
function formatResetTime(ms: number): string {
  return `${RESET_FORMAT.format(new Date(ms))} ${SERVER_ZONE}`;
}

/**
 * A budget refusal as the relay answers it (docs/budgets.md): HTTP 429, type and code
 * `budget_exceeded`, the message naming the token's or the user's budget, its limit and the reset
 * time, and `Retry-After` in seconds until that reset.
 */
export function budgetRefusal(lang: Lang, refusal: BudgetRefusal, nowMs = Date.now()): RelayError {
  return relayError({
    lang,
    status: 429,
    key: refusal.reason === 'token_budget' ? 'relay.token_budget' : 'relay.user_budget',
    params: {
      period: (PERIOD_NAMES[lang] ?? PERIOD_NAMES['zh-CN'])[refusal.period],
      limit: refusal.limit,
      reset: formatResetTime(refusal.resetAt),
    },
    type: 'budget_exceeded',
    code: 'budget_exceeded',
    retryAfter: Math.max(1, Math.ceil((refusal.resetAt - nowMs) / 1000)),
  });
}

export const isBudgetRefusal = (result: {
  ok: boolean;
  reason?: string;
}): result is BudgetRefusal =>
  !result.ok && (result.reason === 'token_budget' || result.reason === 'user_budget');
