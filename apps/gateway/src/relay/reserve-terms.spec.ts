import { ceilingReservation, OUTPUT_FLOOR_TOKENS, type PriceQuote } from '@tollgate/domain';
import { RelayError } from '@tollgate/relay';
import type { Prepared, RelayCall, Unreserved } from './relay-call';
import { registerMessages } from '../shared/i18n/messages';
import { reservationOf, reservedCall } from './reserve-terms';
import { RELAY_MESSAGES } from './relay.messages';

// The refusal texts are looked up in the catalogue the composition root fills.
registerMessages(RELAY_MESSAGES);

const quote: PriceQuote = {
  mode: 'ratio',
  model: 'm',
  group: 'default',
  modelRatio: 1,
  completionRatio: 2,
  groupRatio: 1,
  cacheRatio: 1,
  cacheCreationRatio: 1,
  modelPrice: -1,
};
const QUOTA_PER_UNIT = 500_000;

const unreserved = (askedCeiling: number | undefined, token?: object): Unreserved =>
  ({
    call: {
      requestId: 'r1',
      lang: 'en',
      caller: { user: { id: 7 }, token },
    } as unknown as RelayCall,
    settings: { price: { quotaPerUnit: QUOTA_PER_UNIT, preConsumedQuota: 500 } },
    facts: { n: 1 },
    quote,
    promptEstimate: 100,
    choices: 1,
    askedCeiling,
  }) as unknown as Unreserved;

const price = (ceiling: number) => ceilingReservation(quote, 100, ceiling, QUOTA_PER_UNIT, 1);
const reservation = (amount: number) => ({ requestId: 'r1', userId: 7, tokenId: 3, amount });
const book = { tokenRemaining: () => 40, userBalance: () => 90 };

describe('reservationOf', () => {
  it('given an asked ceiling, then its price wanted, the output floor as the least', () => {
    const token = { id: 3 };
    expect(reservationOf(unreserved(1000, token))).toEqual([
      'r1',
      7,
      3,
      price(1000),
      price(OUTPUT_FLOOR_TOKENS),
    ]);
  });

  it('given no ceiling field, then one exact amount (PreConsumedQuota output tokens), token 0', () => {
    expect(reservationOf(unreserved(undefined))).toEqual(['r1', 7, 0, price(500), price(500)]);
  });
});

describe('reservedCall', () => {
  it('given the whole amount reserved, then the asked ceiling, not lowered', () => {
    const p = reservedCall(
      unreserved(1000),
      { ok: true, reservation: reservation(price(1000)) },
      book,
    );
    expect(p).toMatchObject({ ceiling: 1000, loweredBy: undefined });
  });

  it('given less reserved because of a limit, then the ceiling that amount pays for and the limit', () => {
    const result = {
      ok: true,
      reservation: reservation(price(300)),
      limitedBy: 'user_quota',
    } as const;
    const p = reservedCall(unreserved(1000), result, book) as Prepared;
    expect(p.ceiling).toBe(300);
    expect(p.loweredBy).toBe('user_quota');
  });

  it('given a fallback call, then every member of it kept beside the reservation', () => {
    const call = {
      ...unreserved(1000),
      body: { model: 'm' },
      hub: undefined,
      client: { kind: 'openai' },
      boundary: undefined,
      group: 'default',
      chain: [4],
      fallback: { requestedModel: 'big', reason: 'failed' },
    } as unknown as Unreserved;
    const booked = reservation(price(1000));
    const p = reservedCall(call, { ok: true, reservation: booked }, book);
    expect(p).toEqual({ ...call, reservation: booked, ceiling: 1000, loweredBy: undefined });
    expect((p as Prepared).chain).toBe(call.chain); // the attempts add to the call's own chain
  });

  it("given a limited token's refusal, then 403 with what the token has left", () => {
    const limited = { id: 3, unlimitedQuota: false };
    const error = reservedCall(
      unreserved(1000, limited),
      { ok: false, reason: 'token_quota' },
      book,
    );
    expect(error).toBeInstanceOf(RelayError);
    expect(error).toMatchObject({ status: 403, code: 'insufficient_token_quota' });
    expect((error as RelayError).message).toContain('40');
  });

  it("given the user's refusal, then 403 with the user's balance", () => {
    const error = reservedCall(unreserved(1000), { ok: false, reason: 'user_quota' }, book);
    expect(error).toMatchObject({ status: 403, code: 'insufficient_user_quota' });
    expect((error as RelayError).message).toContain('90');
  });
});
