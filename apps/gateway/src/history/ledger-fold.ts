import {
  BILLING_EVENT_TYPES,
  TASK_REFUND_EVENT_TYPES,
  TOKEN_EVENT_TYPES,
  USAGE_EVENT_TYPES,
  type UsageSummarized,
} from '@tollgate/domain';
import { SummarySources, USAGE_SUMMARY_EVENT_TYPES } from '../usage/summary-sources';
import { billingDeltaOf } from './event-facts';

export interface UserSums {
  credited: number;
  charged: number;
  requests: number;
  aff: number;
  billingEvents: number;
}
export interface TokenSums {
  userId: number;
  unlimited: boolean;
  cap: number;
  chargedSinceCap: number;
  used: number;
  requests: number;
  tokenEvents: number;
  deleted: boolean;
}
export interface ChannelSums {
  used: number;
  requests: number;
}

/** The event types the ledger is folded from. */
export const LEDGER_EVENT_TYPES: readonly string[] = [
  'UserRegistered',
  'UserImported',
  ...BILLING_EVENT_TYPES,
  ...TOKEN_EVENT_TYPES,
  ...USAGE_EVENT_TYPES,
  ...TASK_REFUND_EVENT_TYPES,
  ...USAGE_SUMMARY_EVENT_TYPES,
  'ChannelImported',
];

type Data = Record<string, unknown>;
const n = (v: unknown): number => (typeof v === 'number' ? v : 0);

/**
 * What the events say every balance is, folded independently of the projections and the balance
 * book (docs/ledger.md): user = Σ credits − Σ receipts; token = last cap − receipts since it was
 * set (in the log's order), used = Σ receipts; channel used = Σ receipts naming it. A task refund
 * (TaskRefunded) is its charge's receipt taken back: −quota everywhere, −1 request for the user
 * (request_count); a token's remaining then rises even past its cap, as the book counts it. A
 * usage summary stands in for its removed receipts when none of them was folded (the reader rule).
 */
export class LedgerFold {
  readonly users = new Map<number, UserSums>();
  readonly tokens = new Map<number, TokenSums>();
  readonly channels = new Map<number, ChannelSums>();
  private readonly sources = new SummarySources();

  /** One event; `streamId` tells a usage stream's receipts from a task's (for the reader rule). */
  apply(type: string, data: unknown, streamId = ''): void {
    const d = (data ?? {}) as Data;
    switch (type) {
      case 'UserRegistered':
      case 'UserImported':
        this.user(n(d['userId']));
        return;
      case 'BalanceImported':
        return this.openingBalance(d);
      case 'TokenImported':
        return this.tokenImported(d);
      case 'ChannelImported':
        // The source's used_quota: receipts this log never saw, counted as the channel's start.
        this.channel(n(d['channelId'])).used += n(d['usedQuota']);
        return;
      case 'QuotaGranted':
      case 'QuotaAdjusted':
      case 'AffQuotaTransferred':
      case 'InviterRewarded':
        return this.credited(type, d);
      case 'TokenCreated':
      case 'TokenUpdated':
        return this.tokenCapSet(d);
      case 'TokenStatusChanged':
      case 'TokenDeleted': {
        const token = this.tokens.get(n(d['tokenId']));
        if (!token) return;
        token.tokenEvents += 1;
        if (type === 'TokenDeleted') token.deleted = true;
        return;
      }
      case 'RequestRelayed':
        this.sources.receipt(streamId);
        return this.charged(n(d['userId']), n(d['tokenId']), n(d['channelId']), n(d['quota']), 1);
      case 'UsageSummarized':
        for (const row of this.sources.rows(data as UsageSummarized['data']))
          this.charged(row.userId, row.tokenId, row.channelId, row.quota, row.requests);
        return;
      case 'TaskRefunded':
        return this.refunded(d);
    }
  }

  /** The opening balance: quota + used credited, used charged in requestCount requests. */
  private openingBalance(d: Data): void {
    const user = this.user(n(d['userId']));
    user.billingEvents += 1;
    user.credited += n(d['quota']) + n(d['usedQuota']);
    user.charged += n(d['usedQuota']);
    user.requests += n(d['requestCount']);
    user.aff += n(d['affQuota']);
  }

  private tokenImported(d: Data): void {
    this.tokens.set(n(d['tokenId']), {
      userId: n(d['userId']),
      unlimited: d['unlimitedQuota'] === true,
      cap: n(d['remainQuota']),
      chargedSinceCap: 0,
      used: n(d['usedQuota']),
      requests: 0,
      tokenEvents: 1,
      deleted: d['deleted'] === true,
    });
  }

  private credited(type: string, d: Data): void {
    const user = this.user(n(d['userId']));
    const delta = billingDeltaOf(type, d);
    user.billingEvents += 1;
    user.credited += delta.quota;
    user.aff += delta.affQuota;
  }

  /** A created or updated token: its cap starts again from the new remain_quota. */
  private tokenCapSet(d: Data): void {
    const id = n(d['tokenId']);
    const token = this.tokens.get(id) ?? {
      userId: n(d['userId']),
      unlimited: false,
      cap: 0,
      chargedSinceCap: 0,
      used: 0,
      requests: 0,
      tokenEvents: 0,
      deleted: false,
    };
    token.tokenEvents += 1;
    token.unlimited = d['unlimitedQuota'] === true;
    token.cap = n(d['remainQuota']);
    token.chargedSinceCap = 0;
    this.tokens.set(id, token);
  }

  /** Usage receipts (one, or a summary row's): charged to their user, token and channel. */
  private charged(
    userId: number,
    tokenId: number,
    channelId: number,
    quota: number,
    requests: number,
  ): void {
    const user = this.user(userId);
    user.charged += quota;
    user.requests += requests;
    const token = this.tokens.get(tokenId);
    if (token) {
      token.used += quota;
      token.chargedSinceCap += quota;
      token.requests += requests;
    }
    if (channelId > 0) {
      const channel = this.channel(channelId);
      channel.used += quota;
      channel.requests += requests;
    }
  }

  /** A task refund takes its receipt's charge back (and the user's request; token and channel keep theirs). */
  private refunded(d: Data): void {
    const quota = n(d['quota']);
    const user = this.user(n(d['userId']));
    user.charged -= quota;
    user.requests -= 1;
    const token = this.tokens.get(n(d['tokenId']));
    if (token) {
      token.used -= quota;
      token.chargedSinceCap -= quota;
    }
    const channelId = n(d['channelId']);
    if (channelId > 0) this.channel(channelId).used -= quota;
  }

  private user(id: number): UserSums {
    let user = this.users.get(id);
    if (!user) {
      user = { credited: 0, charged: 0, requests: 0, aff: 0, billingEvents: 0 };
      this.users.set(id, user);
    }
    return user;
  }

  private channel(id: number): ChannelSums {
    let channel = this.channels.get(id);
    if (!channel) {
      channel = { used: 0, requests: 0 };
      this.channels.set(id, channel);
    }
    return channel;
  }
}
