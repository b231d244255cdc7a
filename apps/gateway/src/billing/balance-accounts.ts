/**
 * The balance book's accounts: a user's credits and charges, a token's cap and charges, each with
 * its budget and open reservations; and how billing and token events change them.
 */
import {
  balanceDelta,
  type BillingEvent,
  type BudgetPeriod,
  type TokenEvent,
} from '@tollgate/domain';
import { type Budgeted, newSpend } from './period-windows';

export interface Account extends Budgeted {
  /** Net credits from billing-<id> (grants, transfers, admin deltas). */
  credited: number;
  /**
   * Σ quota of the RequestRelayed receipts (and of local settles not yet seen as receipts), less the
   * TaskRefunded refunds.
   */
  charged: number;
  /** Quota held by open reservations. */
  reserved: number;
}

export interface TokenAccount extends Budgeted {
  unlimited: boolean;
  /** The remain_quota last set by the owner (create/update). */
  cap: number;
  /** Charged since that cap was set. */
  chargedSinceCap: number;
  /** Σ of all charges (used_quota). */
  used: number;
  reserved: number;
}

/** What the user can spend: credits − charges − open reservations. */
export const available = (a: Account): number => a.credited - a.charged - a.reserved;
/** What the token can spend: its cap − charges since it was set − open reservations. */
export const tokenLeft = (t: TokenAccount): number => t.cap - t.chargedSinceCap - t.reserved;

export function newAccount(): Account {
  return {
    credited: 0,
    charged: 0,
    reserved: 0,
    budgetQuota: 0,
    budgetPeriod: 'day',
    spend: newSpend(),
  };
}

/** A token's budget from its settings (events before budgets have none). */
const budgetOf = (settings: {
  periodQuota?: number;
  period?: BudgetPeriod;
}): Pick<Budgeted, 'budgetQuota' | 'budgetPeriod'> => ({
  budgetQuota: settings.period ? (settings.periodQuota ?? 0) : 0,
  budgetPeriod: settings.period ?? 'day',
});

/**
 * A billing event on the user's account. Returns whether what the user can spend may have grown
 * (every event but an import).
 */
export function applyBillingEvent(account: Account, event: BillingEvent): boolean {
  if (event.type === 'BalanceImported') {
    // As if quota + used had been credited and used charged (balance = quota, as imported).
    account.credited += event.data.quota + event.data.usedQuota;
    account.charged += event.data.usedQuota;
    return false;
  }
  account.credited += balanceDelta(event); // the credit rule (an invitation reward: 0)
  if (event.type === 'BudgetSet') {
    account.budgetQuota = event.data.period ? event.data.periodQuota : 0;
    account.budgetPeriod = event.data.period || 'day';
  }
  return true;
}

/** What a token event changes beside the token: its leases end, its owner may spend more. */
export interface TokenEffects {
  /** The token's cap is new or the token is gone: the leases on the old one end. */
  capEnded(tokenId: number): void;
  /** The owner's spendable may have grown. */
  freed(userId: number): void;
}

/** A token event on the tokens' accounts. */
export function applyTokenEvent(
  tokens: Map<number, TokenAccount>,
  event: TokenEvent,
  effects: TokenEffects,
): void {
  switch (event.type) {
    case 'TokenCreated':
      tokens.set(event.data.tokenId, newTokenAccount(event.data, 0));
      return;
    case 'TokenUpdated': {
      const token = tokens.get(event.data.tokenId);
      if (!token) return;
      token.unlimited = event.data.unlimitedQuota;
      token.cap = event.data.remainQuota;
      token.chargedSinceCap = 0;
      // A new cap ends the leases on the old one (as the token stream's state does).
      effects.capEnded(event.data.tokenId);
      // The spend of the current period stays: a budget set or changed mid-period counts it.
      Object.assign(token, budgetOf(event.data));
      effects.freed(event.data.userId);
      return;
    }
    case 'TokenDeleted':
      tokens.delete(event.data.tokenId);
      effects.capEnded(event.data.tokenId);
      return;
    case 'TokenImported':
      if (event.data.deleted) return;
      // The remaining quota it was imported with is its cap; what it used before is history.
      tokens.set(event.data.tokenId, newTokenAccount(event.data, event.data.usedQuota));
      return;
    case 'TokenStatusChanged':
      return;
  }
}

function newTokenAccount(
  settings: {
    unlimitedQuota: boolean;
    remainQuota: number;
    periodQuota?: number;
    period?: BudgetPeriod;
  },
  used: number,
): TokenAccount {
  return {
    unlimited: settings.unlimitedQuota,
    cap: settings.remainQuota,
    chargedSinceCap: 0,
    used,
    reserved: 0,
    ...budgetOf(settings),
    spend: newSpend(),
  };
}
