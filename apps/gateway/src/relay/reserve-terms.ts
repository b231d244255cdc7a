/**
 * What a call reserves on the balance book and what its reservation decides: the output ceiling
 * sent upstream (lowered to what the payer can afford), or the refusal the client is sent.
 */
import {
  affordableCeiling,
  ceilingReservation,
  OUTPUT_FLOOR_TOKENS,
  withFields,
} from '@tollgate/domain';
import type { RelayError } from '@tollgate/relay';
import { budgetRefusal, isBudgetRefusal } from './budget-refusal';
import type { Prepared, Unreserved } from './relay-call';
import { relayError } from './relay-http';
import type { BalanceBookPort, LimitReason, Reservation, ReserveResult } from './relay-ports';

/**
 * The book's reserve arguments for a call: the price of its asked ceiling plus the prompt, or
 * less down to the price of OUTPUT_FLOOR_TOKENS (the ceiling is then lowered to fit). Per-call
 * prices and endpoints without a ceiling field reserve one exact amount (those without a field:
 * PreConsumedQuota output tokens).
 */
export function reservationOf(p: Unreserved): Parameters<BalanceBookPort['reserve']> {
  const { call, quote, settings, promptEstimate: prompt, askedCeiling: asked } = p;
  const quotaPerUnit = settings.price.quotaPerUnit;
  const calls = quote.mode === 'price' ? p.facts.n : p.choices;
  const price = (ceiling: number) =>
    // Absurd max_tokens / n stay a (refusable) number instead of breaking the book's integer check.
    Math.min(
      ceilingReservation(quote, prompt, ceiling, quotaPerUnit, calls),
      Number.MAX_SAFE_INTEGER,
    );
  const wanted = price(asked ?? settings.price.preConsumedQuota);
  const floor =
    asked === undefined || asked <= OUTPUT_FLOOR_TOKENS ? wanted : price(OUTPUT_FLOOR_TOKENS);
  // The book skips the token's own quota when it is unlimited; it still counts its usage.
  return [call.requestId, call.caller.user.id, call.caller.token?.id ?? 0, wanted, floor];
}

/**
 * `p` with what its reservation decided. Spelled out, not `{ ...p, … }`: V8 copies a spread of
 * this many keys into a dictionary, some 2 KiB of garbage a call against 0.2.
 */
function withReservation(
  p: Unreserved,
  reservation: Reservation,
  ceiling: number | undefined,
  loweredBy: LimitReason | undefined,
): Prepared {
  // `satisfies` names every member but the fallback: a member added to Prepared and not copied
  // here fails the build instead of going missing.
  const prepared: Prepared = {
    call: p.call,
    settings: p.settings,
    facts: p.facts,
    body: p.body,
    hub: p.hub,
    client: p.client,
    boundary: p.boundary,
    group: p.group,
    quote: p.quote,
    promptEstimate: p.promptEstimate,
    choices: p.choices,
    askedCeiling: p.askedCeiling,
    reservation,
    ceiling,
    loweredBy,
    chain: p.chain,
  } satisfies Record<Exclude<keyof Prepared, 'fallback'>, unknown>;
  return p.fallback ? withFields(prepared, { fallback: p.fallback }) : prepared;
}

/** The call with its reservation and ceiling, or the refusal as the client sees it. */
export function reservedCall(
  p: Unreserved,
  result: ReserveResult,
  book: Pick<BalanceBookPort, 'tokenRemaining' | 'userBalance'>,
): Prepared | RelayError {
  const { call } = p;
  if (result.ok) {
    const reservation = result.reservation;
    const asked = p.askedCeiling;
    // Reserved less than wanted (a limit lowered it): the ceiling that amount pays for.
    const ceiling =
      asked === undefined || result.limitedBy === undefined
        ? asked
        : affordableCeiling(
            p.quote,
            p.promptEstimate,
            asked,
            reservation.amount,
            p.settings.price.quotaPerUnit,
            p.choices,
          );
    const lowered = ceiling !== undefined && asked !== undefined && ceiling < asked;
    return withReservation(p, reservation, ceiling, lowered ? result.limitedBy : undefined);
  }
  if (isBudgetRefusal(result)) return budgetRefusal(call.lang, result);
  // A limited token's holder learns what that token has left, never its owner's balance.
  const token = call.caller.token;
  const remain =
    token && !token.unlimitedQuota
      ? (book.tokenRemaining(token.id) ?? 0)
      : (book.userBalance(call.caller.user.id) ?? 0);
  const user = result.reason === 'user_quota';
  return relayError({
    lang: call.lang,
    status: 403,
    key: user ? 'relay.user_quota' : 'relay.token_quota',
    params: { remain },
    type: 'insufficient_quota',
    code: user ? 'insufficient_user_quota' : 'insufficient_token_quota',
  });
}
