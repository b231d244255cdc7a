import type { RecordedEvent } from '@tollgate/event-store';
import type { ReadStore } from '@tollgate/read-store';
import { RelayError } from '@tollgate/relay';
import type { SecretBox } from '../infrastructure/secret-box';
import { newRelayTrace } from '../observability/request-record';
import { OptionsCache } from '../options/options.cache';
import { OPENAI_CLIENT } from './client-wire';
import { prepareRequest } from './prepare-request';
import type { RelayCall, Unreserved } from './relay-call';
import type { RoutedChannel, RoutingTablePort } from './relay-ports';
import { RelaySettingsView } from './relay-settings';

const options = new OptionsCache({} as ReadStore, {} as SecretBox);
const setOption = (key: string, value: string) =>
  options.apply([
    { type: 'OptionChanged', data: { key, value, previous: '' } } as unknown as RecordedEvent,
  ]);
setOption('ModelRatio', JSON.stringify({ 'gpt-4o-mini': 0.075, 'whisper-1': 15 }));
setOption('GroupRatio', JSON.stringify({ default: 1, vip: 2 }));
setOption('UserUsableGroups', JSON.stringify({ default: '', vip: '' }));
const settings = new RelaySettingsView(() => options).current();

/** Every group × model is served unless `unserved` names the model. */
const routing = (unserved = ''): RoutingTablePort => ({
  candidates: (_group, model) => (model === unserved ? [] : [{ id: 1 } as RoutedChannel]),
  channel: () => undefined,
  models: () => [],
});

const call = (body: object | string, over: Partial<RelayCall> = {}): RelayCall => ({
  endpoint: 'chat',
  route: '/v1/chat/completions',
  raw: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  contentType: 'application/json',
  ip: '127.0.0.1',
  lang: 'en',
  requestId: 'r1',
  correlationId: 'c1',
  trace: newRelayTrace(0),
  startedAt: 0,
  caller: {
    user: { id: 7, username: 'u', status: 1, role: 1, group: 'default' },
    token: undefined,
    pinnedChannelId: undefined,
  },
  ...over,
});

const prepare = (c: RelayCall, unserved?: string) =>
  prepareRequest(c, settings, OPENAI_CLIENT, routing(unserved));

const refusal = (result: Unreserved | RelayError): RelayError => {
  if (!(result instanceof RelayError)) throw new Error('expected a refusal');
  return result;
};

describe('prepareRequest', () => {
  it('given a chat body, then its facts, price, group and asked ceiling', () => {
    const c = call({
      model: 'gpt-4o-mini',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const p = prepare(c) as Unreserved;
    expect(p.facts.model).toBe('gpt-4o-mini');
    expect(p.group).toBe('default');
    expect(p.quote.mode).toBe('ratio');
    expect(p.askedCeiling).toBe(100);
    expect(p.promptEstimate).toBeGreaterThan(0);
    expect(p.chain).toEqual([]);
    expect(c.trace.model).toBe('gpt-4o-mini');
  });

  it('given the playground with a usable group, then that group, left out of the hub', () => {
    const body = { model: 'gpt-4o-mini', group: 'vip', messages: [] };
    const p = prepare(
      call(body, { playground: true, route: '/pg/chat/completions' }),
    ) as Unreserved;
    expect(p.group).toBe('vip');
    expect(p.hub).not.toHaveProperty('group');
    expect(p.body).toHaveProperty('group', 'vip');
  });

  it('given an endpoint without a ceiling field, then no asked ceiling', () => {
    const c = call({ model: 'gpt-4o-mini', input: 'x' }, { endpoint: 'embeddings' });
    expect((prepare(c) as Unreserved).askedCeiling).toBeUndefined();
  });

  it('given a multipart upload without a model field, then whisper-1 and no JSON body', () => {
    const boundary = 'b0';
    const raw = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nxx\r\n--${boundary}--\r\n`;
    const c = call(raw, {
      endpoint: 'audioTranscriptions',
      contentType: `multipart/form-data; boundary=${boundary}`,
    });
    const p = prepare(c) as Unreserved;
    expect(p.facts.model).toBe('whisper-1');
    expect(p.boundary).toBe(boundary);
    expect(p.body).toBeUndefined();
  });

  it('given a body that is not JSON, then 400 invalid_request', () => {
    expect(refusal(prepare(call('{nope')))).toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('given no model, then 400 model_missing', () => {
    expect(refusal(prepare(call({ messages: [] })))).toMatchObject({
      status: 400,
      code: 'model_missing',
    });
  });

  it('given a model without a price, then 403 model_price_error', () => {
    expect(refusal(prepare(call({ model: 'unpriced' })))).toMatchObject({
      status: 403,
      code: 'model_price_error',
    });
  });

  it('given a priced model no channel serves, then the routing refusal', () => {
    expect(refusal(prepare(call({ model: 'gpt-4o-mini' }), 'gpt-4o-mini')).status).toBe(503);
  });
});
