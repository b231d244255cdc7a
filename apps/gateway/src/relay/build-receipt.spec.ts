import type { ChargeReceipt } from '@tollgate/domain';
import { newRelayTrace } from '../observability/request-record';
import { buildReceipt } from './build-receipt';
import type { Answered, Prepared, RelayCall } from './relay-call';
import type { RoutedChannel } from './relay-ports';

const call = {
  route: '/v1/chat/completions',
  ip: '10.0.0.1',
  requestId: 'r1',
  startedAt: 1_000,
  trace: newRelayTrace(3),
  caller: {
    user: { id: 7, username: 'u', status: 1, role: 1, group: 'default' },
    token: { id: 3, name: 'ci' },
    pinnedChannelId: undefined,
  },
} as unknown as RelayCall;

const prepared = (over: Partial<Prepared> = {}): Prepared =>
  ({
    call,
    group: 'default',
    facts: { model: 'gpt-4o-mini' },
    chain: [4, 5],
    choices: 1,
    ceiling: 100,
    loweredBy: undefined,
    reservation: { requestId: 'r1', userId: 7, tokenId: 3, amount: 500 },
    settings: { providers: { passThrough: false } },
    boundary: undefined,
    ...over,
  }) as unknown as Prepared;

const charge = (over: Partial<ChargeReceipt> = {}): ChargeReceipt => ({
  quota: 400,
  mode: 'ratio',
  modelRatio: 0.075,
  completionRatio: 4,
  groupRatio: 1,
  cacheRatio: 1,
  cacheCreationRatio: 1.25,
  modelPrice: 0,
  promptTokens: 10,
  completionTokens: 90,
  cachedTokens: 0,
  cacheCreationTokens: 0,
  ...over,
});

const answered = (over: Partial<Answered> = {}): Answered => ({
  prepared: prepared(),
  channel: { id: 5, paramOverride: {} } as unknown as RoutedChannel,
  upstreamModel: 'gpt-4o-mini-2024',
  usage: { promptTokens: 10, completionTokens: 90, cachedTokens: 0 },
  estimated: false,
  firstAt: 1_250,
  stream: true,
  ...over,
});

describe('buildReceipt', () => {
  it('given a streamed answer within its reservation, then the plain receipt', () => {
    const receipt = buildReceipt(answered(), charge(), 400, 2_000);
    expect(receipt).toEqual({
      requestId: 'r1',
      userId: 7,
      tokenId: 3,
      tokenName: 'ci',
      group: 'default',
      model: 'gpt-4o-mini',
      upstreamModel: 'gpt-4o-mini-2024',
      channelId: 5,
      channelChain: [4, 5],
      endpoint: '/v1/chat/completions',
      promptTokens: 10,
      completionTokens: 90,
      cachedTokens: 0,
      quota: 400,
      reserved: 500,
      modelRatio: 0.075,
      completionRatio: 4,
      groupRatio: 1,
      cacheRatio: 1,
      modelPrice: 0,
      useTimeMs: 1_000,
      firstTokenMs: 250,
      stream: true,
      estimated: false,
      ip: '10.0.0.1',
    });
  });

  it('given a charge past the reservation and past the ceiling, then the overrun and the ignored ceiling', () => {
    const receipt = buildReceipt(answered(), charge({ completionTokens: 150 }), 700, 2_000);
    expect(receipt).toMatchObject({ quota: 700, overrun: 200, ceilingIgnored: true });
  });

  it('given a lowered ceiling, a cut stream, cache writes and reasoning, then each is said', () => {
    const receipt = buildReceipt(
      answered({
        prepared: prepared({ ceiling: 40, loweredBy: 'user_quota' }),
        usage: { promptTokens: 10, completionTokens: 30, cachedTokens: 0, reasoningTokens: 12 },
        cut: true,
      }),
      charge({ completionTokens: 30, cacheCreationTokens: 8 }),
      300,
      2_000,
    );
    expect(receipt).toMatchObject({
      loweredCeiling: 40,
      loweredBy: 'user_quota',
      streamCut: true,
      cacheCreationTokens: 8,
      cacheCreationRatio: 1.25,
      reasoningTokens: 12,
    });
    expect(receipt).not.toHaveProperty('overrun');
    expect(receipt).not.toHaveProperty('ceilingIgnored');
  });

  it('keeps the order of its members: the optional ones where they always stood', () => {
    const reservation = { requestId: 'r1', userId: 7, tokenId: 3, amount: 500, leaseId: 'l1' };
    const p = prepared({ reservation });
    const receipt = buildReceipt(answered({ prepared: p }), charge(), 700, 2_000);
    const keys = Object.keys(receipt);
    expect(keys.slice(keys.indexOf('cachedTokens'), keys.indexOf('modelRatio') + 1)).toEqual([
      'cachedTokens',
      'quota',
      'reserved',
      'leaseId',
      'overrun',
      'modelRatio',
    ]);
    expect(keys.slice(0, 2)).toEqual(['requestId', 'userId']);
    expect(keys.at(-1)).toBe('ip');
  });

  it('given a whole answer and no token, then no first-token time and token 0', () => {
    const noToken = { ...call, caller: { ...call.caller, token: undefined } } as RelayCall;
    const receipt = buildReceipt(
      answered({ prepared: prepared({ call: noToken }), stream: false }),
      charge(),
      400,
      2_000,
    );
    expect(receipt).toMatchObject({ tokenId: 0, tokenName: '', firstTokenMs: null, stream: false });
  });

  it('copies the chain: later attempts do not change the receipt', () => {
    const p = prepared();
    const receipt = buildReceipt(answered({ prepared: p }), charge(), 400, 2_000);
    p.chain.push(9);
    expect(receipt.channelChain).toEqual([4, 5]);
  });

  it('names the members the channel override set on the upstream body', () => {
    const channel = { id: 5, paramOverride: { temperature: 0.2, top_p: 1 } };
    const receipt = buildReceipt(
      answered({ channel: channel as unknown as RoutedChannel }),
      charge(),
      400,
      2_000,
    );
    expect(receipt.paramOverride).toEqual(['temperature', 'top_p']);
    expect(buildReceipt(answered(), charge(), 400, 2_000)).not.toHaveProperty('paramOverride');
  });

  it('names the model asked for and the reason when a fallback model answered', () => {
    const fallback = { requestedModel: 'gpt-4o', reason: 'context_window' as const };
    const p = prepared({ fallback });
    const receipt = buildReceipt(answered({ prepared: p }), charge(), 400, 2_000);
    expect(receipt).toMatchObject({
      model: 'gpt-4o-mini',
      requestedModel: 'gpt-4o',
      fallbackReason: 'context_window',
    });
    expect(buildReceipt(answered(), charge(), 400, 2_000)).not.toHaveProperty('requestedModel');
  });
});
