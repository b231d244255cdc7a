import type { JsonObject } from '../../openai/request-body';
import { parseProviderSettings } from '../provider-settings';
import { bodyOf, wireChannel } from '../testing-fixtures';
import { ANTHROPIC_ADAPTOR, anthropicNativeRequest } from './anthropic-adaptor';
import { withThinkingAdapter } from './anthropic-settings';

const channel = wireChannel(14, { baseUrl: 'https://api.anthropic.com', key: 'sk-ant' });
const now = new Date(0);
const hub: JsonObject = { model: 'client-model', messages: [{ role: 'user', content: 'hi' }] };
const settings = (options: Record<string, string> = {}) => parseProviderSettings(options);

describe("Anthropic adaptor: new-api's claude.* settings", () => {
  it('without settings (unit callers, channel tests) keeps its own behaviour', () => {
    const req = ANTHROPIC_ADAPTOR.request(
      'chat',
      hub,
      channel,
      'claude-3-7-sonnet-thinking',
      false,
      now,
    );
    expect(bodyOf(req.body)).toMatchObject({
      model: 'claude-3-7-sonnet-thinking',
      max_tokens: 8192,
    });
    expect(bodyOf(req.body).thinking).toBeUndefined();
    expect(req.upstreamModel).toBeUndefined();
  });

  it('claude.default_max_tokens: the upstream model’s entry, else default, when the client gave none', () => {
    const s = settings({
      'claude.default_max_tokens': JSON.stringify({ default: 1000, 'claude-a': 2000 }),
    });
    const of = (model: string, body: JsonObject = hub) =>
      bodyOf(
        ANTHROPIC_ADAPTOR.request('chat', body, channel, model, false, now, { settings: s }).body,
      );
    expect(of('claude-a').max_tokens).toBe(2000);
    expect(of('claude-b').max_tokens).toBe(1000);
    expect(of('claude-a', { ...hub, max_tokens: 77 }).max_tokens).toBe(77);
  });

  it('claude.model_headers_settings: the client model’s headers, merged into anthropic-beta', () => {
    const s = settings({
      'claude.model_headers_settings': JSON.stringify({
        'client-model': { 'anthropic-beta': ['output-128k-2025-02-19'], 'x-extra': ['1'] },
      }),
    });
    const req = ANTHROPIC_ADAPTOR.request('chat', hub, channel, 'claude-mapped', false, now, {
      settings: s,
      clientModel: 'client-model',
    });
    expect(req.headers['anthropic-beta']).toBe('output-128k-2025-02-19');
    expect(req.headers['x-extra']).toBe('1');
    // keyed by the client's model, not the mapped one
    const other = ANTHROPIC_ADAPTOR.request('chat', hub, channel, 'client-model', false, now, {
      settings: s,
      clientModel: 'another',
    });
    expect(other.headers['anthropic-beta']).toBeUndefined();
  });

  it('claude.thinking_adapter_*: <model>-thinking is the base model with a budget of max_tokens × %', () => {
    const s = settings({ 'claude.thinking_adapter_budget_tokens_percentage': '0.5' });
    const req = ANTHROPIC_ADAPTOR.request(
      'chat',
      { ...hub, max_tokens: 4000, temperature: 0.2, top_p: 0.5 },
      channel,
      'claude-3-7-sonnet-20250219-thinking',
      false,
      now,
      { settings: s },
    );
    const body = bodyOf(req.body);
    expect(body).toMatchObject({
      model: 'claude-3-7-sonnet-20250219',
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      temperature: 1,
    });
    expect(body.top_p).toBeUndefined();
    expect(req.upstreamModel).toBe('claude-3-7-sonnet-20250219');
  });

  it('thinking: max_tokens raised to 1280, a budget reaching max_tokens pushes it up, off = untouched', () => {
    const low = withThinkingAdapter({ model: 'c-thinking', max_tokens: 100 }, settings().claude);
    expect(low).toMatchObject({ model: 'c', max_tokens: 1280, thinking: { budget_tokens: 1024 } });
    const full = withThinkingAdapter(
      { model: 'c-thinking', max_tokens: 2000 },
      settings({ 'claude.thinking_adapter_budget_tokens_percentage': '1' }).claude,
    );
    expect(full).toMatchObject({ max_tokens: 2001, thinking: { budget_tokens: 2000 } });
    const off = { model: 'c-thinking', max_tokens: 100 };
    expect(
      withThinkingAdapter(off, settings({ 'claude.thinking_adapter_enabled': 'false' }).claude),
    ).toBe(off);
    // the client's own thinking is kept; only the model is cut
    expect(
      withThinkingAdapter(
        {
          model: 'c-thinking',
          max_tokens: 5000,
          thinking: { type: 'enabled', budget_tokens: 3000 },
        },
        settings().claude,
      ),
    ).toEqual({ model: 'c', max_tokens: 5000, thinking: { type: 'enabled', budget_tokens: 3000 } });
  });

  it('native /v1/messages: headers merged with the client’s anthropic-beta, thinking adapted', () => {
    const s = settings({
      'claude.model_headers_settings': JSON.stringify({
        'claude-x-thinking': { 'anthropic-beta': ['b2', 'b1'] },
      }),
    });
    const body = { model: 'claude-x-thinking', max_tokens: 2000, messages: [] };
    const raw = Buffer.from(JSON.stringify(body));
    const req = anthropicNativeRequest(
      raw,
      body,
      channel,
      'claude-x-thinking',
      false,
      { 'anthropic-beta': 'b1' },
      { settings: s, clientModel: 'claude-x-thinking' },
    );
    expect(req.headers['anthropic-beta']).toBe('b1,b2');
    expect(bodyOf(req.body)).toMatchObject({
      model: 'claude-x',
      thinking: { type: 'enabled', budget_tokens: 1600 },
    });
    expect(req.upstreamModel).toBe('claude-x');
    // an untouched body is still the client's bytes
    const plain = { model: 'claude-x', max_tokens: 10, messages: [] };
    const plainRaw = Buffer.from(` ${JSON.stringify(plain)}`);
    const same = anthropicNativeRequest(
      plainRaw,
      plain,
      channel,
      'claude-x',
      false,
      {},
      { settings: s },
    );
    expect(same.body).toBe(plainRaw);
  });

  it('global pass-through: the native request carries the client’s bytes, headers still applied', () => {
    const s = settings({
      'global.pass_through_request_enabled': 'true',
      'claude.model_headers_settings': JSON.stringify({ m: { 'x-extra': ['1'] } }),
    });
    const body = { model: 'm-thinking', max_tokens: 10, messages: [] };
    const raw = Buffer.from(JSON.stringify(body));
    const req = anthropicNativeRequest(
      raw,
      body,
      channel,
      'mapped-thinking',
      false,
      {},
      {
        settings: s,
        clientModel: 'm',
        passThroughBody: raw,
      },
    );
    expect(req.body).toBe(raw);
    expect(req.headers['x-extra']).toBe('1');
  });
});
