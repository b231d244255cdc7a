import { Inject, Injectable } from '@nestjs/common';
import type { TokenQuotaAtDto } from '@tollgate/contracts';
import type { ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../infrastructure/injection-tokens';
import { AUDIT_INDEX, type AuditIndexDocument } from './audit-index.document';
import {
  LEDGER_TOKEN_CAPS,
  LEDGER_USAGE,
  usageRange,
  type LedgerTokenCapDocument,
  type LedgerUsageDocument,
  type UsageSubject,
} from './ledger-usage.document';

const HOUR = 3600;

export interface Consumption {
  readonly quota: number;
  readonly count: number;
}

/**
 * Balances at an instant T (unix seconds; everything that happened during second T included),
 * computed from what the events sum to: a user's balance = Σ credits of billing-<id> up to T −
 * Σ quota of their usage receipts up to T; a token's remaining = the cap its owner last set up to T −
 * what it was charged since. Consumption comes from ledger_usage (whole hours + the seconds of T's
 * hour): a bounded sum however long the log.
 */
@Injectable()
export class BalanceAt {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async consumed(subject: UsageSubject, id: number, at: number): Promise<Consumption> {
    const hour = Math.floor(at / HOUR) * HOUR;
    const usage = this.readStore.collection<LedgerUsageDocument>(LEDGER_USAGE);
    const [hours, seconds] = await Promise.all([
      usage.sum(usageRange(subject, id, 'h', 0, hour - 1), null, ['q', 'n']),
      usage.sum(usageRange(subject, id, 's', hour, at), null, ['q', 'n']),
    ]);
    const total = (field: string) => (hours[0]?.sums[field] ?? 0) + (seconds[0]?.sums[field] ?? 0);
    return { quota: total('q'), count: total('n') };
  }

  async credited(userId: number, at: number): Promise<number> {
    const [sum] = await this.readStore
      .collection<AuditIndexDocument>(AUDIT_INDEX)
      .sum({ entity: 'user', entity_id: userId, time: { $lte: at } }, null, ['quota_delta']);
    return sum?.sums['quota_delta'] ?? 0;
  }

  async user(userId: number, at: number) {
    const [credited, used] = await Promise.all([
      this.credited(userId, at),
      this.consumed('u', userId, at),
    ]);
    return {
      quota: credited - used.quota,
      used_quota: used.quota,
      request_count: used.count,
      credited,
    };
  }

  async token(tokenId: number, at: number): Promise<Omit<TokenQuotaAtDto, 'history_begins_at'>> {
    const [cap] = await this.readStore
      .collection<LedgerTokenCapDocument>(LEDGER_TOKEN_CAPS)
      .find({ token_id: tokenId, at: { $lte: at } }, { sort: { revision: -1 }, limit: 1 });
    const used = await this.consumed('t', tokenId, at);
    if (!cap)
      return {
        timestamp: at,
        existed: false,
        remain_quota: 0,
        used_quota: 0,
        unlimited_quota: false,
      };
    return {
      timestamp: at,
      existed: true,
      remain_quota: cap.cap - (used.quota - cap.used_before),
      used_quota: used.quota,
      unlimited_quota: cap.unlimited,
    };
  }
}
