import { TopUpStatus, type TopUpStatusValue } from '@tollgate/contracts';
import { TRADE_NO_PATTERN, type TopUpOrderImported } from '@tollgate/domain';
import type { Mapped, ReportItem } from './import-mapping';
import { float, int, rowIdOf, text } from './row-values';

type Row = Record<string, unknown>;

export type TopUpFacts = TopUpOrderImported['data'];
export interface MappedTopUp {
  readonly order: TopUpFacts;
  readonly items: ReportItem[];
}

/** new-api's default QuotaPerUnit (500 000 quota = 1 USD). */
export const DEFAULT_QUOTA_PER_UNIT = 500_000;

const STATUSES: ReadonlySet<string> = new Set(Object.values(TopUpStatus));

/**
 * One `top_ups` row (new-api's Epay orders). The quota paying it credits is new-api's
 * amount × QuotaPerUnit (the source's option). An unknown status comes in as failed, reported: a
 * failed order is never paid by a callback, so nothing is credited on a guess.
 */
export function mapTopUpRow(
  row: Row,
  importedAt: string,
  quotaPerUnit: number = DEFAULT_QUOTA_PER_UNIT,
): Mapped<MappedTopUp> {
  const id = rowIdOf('top_ups', row);
  if ('skipped' in id) return id;
  const { rowId, at } = id;
  const tradeNo = text(row['trade_no']);
  if (!TRADE_NO_PATTERN.test(tradeNo))
    return {
      skipped: {
        ...at,
        action: 'skipped',
        reason:
          tradeNo === ''
            ? 'empty trade_no'
            : 'trade_no is not 1..64 letters, digits, _ or - (it names the order)',
      },
    };
  const items: ReportItem[] = [];
  let amount = int(row['amount']);
  if (amount < 0) {
    items.push({
      ...at,
      action: 'changed',
      field: 'amount',
      reason: `${amount} is negative: imported as 0`,
    });
    amount = 0;
  }
  let money = float(row['money']);
  if (money < 0) {
    items.push({
      ...at,
      action: 'changed',
      field: 'money',
      reason: `${money} is negative: imported as 0`,
    });
    money = 0;
  }
  const raw = text(row['status']).toLowerCase();
  let status: TopUpStatusValue = raw as TopUpStatusValue;
  if (!STATUSES.has(raw)) {
    status = TopUpStatus.Failed;
    items.push({
      ...at,
      action: 'changed',
      field: 'status',
      reason: `unknown status '${raw}': imported as failed (never paid by a callback)`,
    });
  }
  return {
    order: {
      tradeNo,
      userId: int(row['user_id']),
      provider: 'epay',
      paymentMethod: '',
      amount,
      money: Math.round(money * 100) / 100,
      quota: Math.round(amount * quotaPerUnit),
      createdTime: Math.max(0, int(row['create_time'])),
      status,
      source: { project: 'new-api', table: 'top_ups', rowId, importedAt },
    },
    items,
  };
}
