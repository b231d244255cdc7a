import type { RecordedEvent } from '@tollgate/event-store';
import type { ReadStore } from '@tollgate/read-store';
import { RelayError } from '@tollgate/relay';
import type { SecretBox } from '../infrastructure/secret-box';
import { newRelayTrace } from '../observability/request-record';
import { OptionsCache } from '../options/options.cache';
import { OPENAI_CLIENT } from './client-wire';
import { fallbackModels, prepareFallback } from './prepare-fallback';
import { prepareRequest } from './prepare-request';
import type { Prepared, RelayCall, Unreserved } from './relay-call';
import type { RelayToken, RoutedChannel, RoutingTablePort } from './relay-ports';
import { RelaySettingsView } from './relay-settings';

const options = new OptionsCache({} as ReadStore, {} as SecretBox);
const setOption = (key: string, value: string) =>
  options.apply([
    { type: 'OptionChanged', data: { key, value, previous: '' } } as unknown as RecordedEvent,
  ]);
setOption('ModelRatio', JSON.stringify({ big: 2, small: 0.5, unserved: 1 }));
setOption('ModelFallbacks', JSON.stringify({ big: ['unserved', 'small', 'unpriced'] }));
const settings = new RelaySettingsView(() => options).current();

const routing: RoutingTablePort = {
  candidates: (_group, model) => (model === 'unserved' ? [] : [{ id: 1 } as RoutedChannel]),
  channel: () => undefined,
  models: () => [],
};

const call = (over: Partial<RelayCall> = {}, token?: Partial<RelayToken>): RelayCall => ({
  endpoint: 'chat',
  route: '/v1/chat/completions',
  raw: Buffer.from(JSON.stringify({ model: 'big', messages: [{ role: 'user', content: 'hi' }] })),
  contentType: 'application/json',
  ip: '127.0.0.1',
  lang: 'en',
  requestId: 'r1',
  correlationId: 'c1',
  trace: newRelayTrace(0),
  startedAt: 0,
  caller: {
    user: { id: 7, username: 'u', status: 1, role: 1, group: 'default' },
    token: token && ({ id: 3, group: '', modelFallback: true, ...token } as RelayToken),
    pinnedChannelId: undefined,
  },
  ...over,
});

/** Prepared as the relay holds it after the reservation (the reservation itself unused here). */
const prepared = (c: RelayCall): Prepared =>
  ({ ...(prepareRequest(c, settings, OPENAI_CLIENT, routing) as Unreserved) }) as Prepared;

describe('fallbackModels', () => {
  it("lists the requested model's fallbacks in order", () => {
    expect(fallbackModels(prepared(call()))).toEqual(['unserved', 'small', 'unpriced']);
  });

  it('lists none for a pinned call, the playground or a token that opted out', () => {
    const as = (over: Partial<RelayCall>): Prepared => ({ ...prepared(call()), call: call(over) });
    const user = call().caller.user;
    expect(fallbackModels(as({ caller: { user, token: undefined, pinnedChannelId: 4 } }))).toEqual(
      [],
    );
    expect(fallbackModels(as({ playground: true }))).toEqual([]);
    expect(fallbackModels(prepared(call({}, { modelFallback: false })))).toEqual([]);
    expect(fallbackModels(prepared(call({}, { modelFallback: true })))).toHaveLength(3);
  });
});

describe('prepareFallback', () => {
  it('prepares the call for the fallback model: body, price, chain and why', () => {
    const first = prepared(call());
    first.chain.push(1);
    const next = prepareFallback(first, 'small', 'failed', routing) as Unreserved;
    expect(next.facts.model).toBe('small');
    expect(JSON.parse(next.call.raw.toString()).model).toBe('small');
    expect(next.quote.modelRatio).toBe(0.5);
    expect(next.chain).toBe(first.chain);
    expect(next.fallback).toEqual({ requestedModel: 'big', reason: 'failed' });
    // A second move still names the model the client asked for.
    const third = prepareFallback(next as Prepared, 'small', 'context_window', routing);
    expect((third as Unreserved).fallback).toEqual({
      requestedModel: 'big',
      reason: 'context_window',
    });
  });

  it('refuses a model without a channel, without a price, or outside the token limits', () => {
    const first = prepared(call());
    expect(prepareFallback(first, 'unserved', 'failed', routing)).toBeInstanceOf(RelayError);
    expect(prepareFallback(first, 'unpriced', 'failed', routing)).toBeInstanceOf(RelayError);
    const limited = prepared(call({}, { modelLimitsEnabled: true, modelLimits: ['big'] }));
    expect(prepareFallback(limited, 'small', 'failed', routing)).toBeInstanceOf(RelayError);
  });

  it('names the model in the path when the path carried it', () => {
    const first = prepared(call({ modelFromPath: 'big' }));
    const next = prepareFallback(first, 'small', 'failed', routing) as Unreserved;
    expect(next.call.modelFromPath).toBe('small');
    expect(next.facts.model).toBe('small');
  });
});
