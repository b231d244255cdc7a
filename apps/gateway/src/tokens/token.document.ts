import type { BudgetPeriodName, TokenDto } from '@tollgate/contracts';

export const TOKENS = 'tokens';

/** A token in the read store: the key only sealed (opened for its owner at query time). */
export type TokenDocument = Omit<
  TokenDto,
  'key' | 'period_quota' | 'period' | 'period_used' | 'period_reset_at' | 'model_fallback'
> & {
  /** Absent on rows written before model fallbacks: true. */
  model_fallback?: boolean;
  /** The budget (absent on rows written before budgets: none); its use is computed on reads. */
  period_quota?: number;
  period?: BudgetPeriodName;
  _id: string;
  key_cipher: string;
  key_hash: string;
  /** `$all` commit of the last event applied (guards replays where writes are not atomic). */
  source_position: number;
};

export function toTokenDto(doc: TokenDocument, key: string): TokenDto {
  const {
    _id: _i,
    key_cipher: _c,
    key_hash: _h,
    source_position: _p,
    period_quota,
    period,
    model_fallback,
    ...rest
  } = doc;
  return {
    ...rest,
    key,
    period_quota: period ? (period_quota ?? 0) : 0,
    period: period ?? '',
    period_used: 0,
    period_reset_at: 0,
    model_fallback: model_fallback ?? true,
  };
}
