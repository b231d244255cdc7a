import type { Prepared } from './relay-call';
import type { RoutedChannel } from './relay-ports';
import { paramOverrideOf, withParamOverride } from './param-override';

const prepared = (passThrough = false, boundary?: string) =>
  ({ boundary, settings: { providers: { passThrough } } }) as unknown as Prepared;
const channel = (paramOverride: Record<string, unknown>) =>
  ({ paramOverride }) as unknown as RoutedChannel;

describe('withParamOverride', () => {
  it('replaces top-level members (no deep merge) and adds missing ones', () => {
    const body = Buffer.from('{"model":"m","temperature":1,"extra_body":{"a":1,"b":2}}');
    const out = withParamOverride(body, { temperature: 0.2, extra_body: { a: 9 }, top_k: 3 });
    expect(JSON.parse(out.toString())).toEqual({
      model: 'm',
      temperature: 0.2,
      extra_body: { a: 9 },
      top_k: 3,
    });
  });

  it('leaves a body that is not a JSON object as it is', () => {
    const body = Buffer.from('--boundary\r\n');
    expect(withParamOverride(body, { temperature: 0 })).toBe(body);
  });
});

describe('paramOverrideOf', () => {
  it('the channel override, unless none, multipart or global pass-through', () => {
    const override = { temperature: 0.2 };
    expect(paramOverrideOf(prepared(), channel(override))).toBe(override);
    expect(paramOverrideOf(prepared(), channel({}))).toBeUndefined();
    expect(paramOverrideOf(prepared(true), channel(override))).toBeUndefined();
    expect(paramOverrideOf(prepared(false, 'b'), channel(override))).toBeUndefined();
  });
});
