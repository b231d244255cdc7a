import type { JsonObject } from '../../openai/request-body';
import { geminiChatBody } from '../gemini/gemini-request';
import { parseProviderSettings } from '../provider-settings';
import { bodyOf, wireChannel } from '../testing-fixtures';
import { ANTHROPIC_ADAPTOR, anthropicNativeRequest } from './anthropic-adaptor';
import { anthropicRequestOf, openAiRequestOfAnthropic } from './anthropic-request';
import { effortOfThinking, withoutUnsignedThinking } from './anthropic-thinking';

const channel = wireChannel(14, { baseUrl: 'https://api.anthropic.com', key: 'sk-ant' });
const now = new Date(0);
const messages = [{ role: 'user', content: 'why is the sky blue?' }];

/** What an OpenAI client's body becomes for an Anthropic channel. */
const toAnthropic = (openai: JsonObject, model = 'claude-sonnet-4-5') =>
  bodyOf(
    ANTHROPIC_ADAPTOR.request(
      'chat',
      { model: 'client', messages, ...openai },
      channel,
      model,
      false,
      now,
      {
        settings: parseProviderSettings({}),
      },
    ).body,
  );

describe('reasoning_effort to an Anthropic channel', () => {
  it('sends thinking with a budget below max_tokens, and no sampling Anthropic refuses with it', () => {
    const body = toAnthropic({
      reasoning_effort: 'high',
      max_tokens: 4096,
      temperature: 0.3,
      top_p: 0.5,
    });
    // high is 24K, capped at 80 % of max_tokens so the answer keeps the rest.
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 3276 });
    expect(body.max_tokens).toBe(4096);
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_p');
  });

  it('takes the effort’s budget when max_tokens leaves room, the channel default when none is given', () => {
    expect(toAnthropic({ reasoning_effort: 'medium', max_tokens: 32_000 }).thinking).toEqual({
      type: 'enabled',
      budget_tokens: 8192,
    });
    // No max_tokens: claude.default_max_tokens' default (8192), so low's 1024 fits.
    const body = toAnthropic({ reasoning_effort: 'low' });
    expect(body).toMatchObject({ max_tokens: 8192, thinking: { budget_tokens: 1024 } });
  });

  it('raises a max_tokens too small for the minimum budget to 1280', () => {
    const body = toAnthropic({ reasoning_effort: 'high', max_completion_tokens: 300 });
    expect(body).toMatchObject({
      max_tokens: 1280,
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
  });

  it('sends no thinking for none, an unknown effort, or a forced tool', () => {
    expect(toAnthropic({ reasoning_effort: 'none' })).not.toHaveProperty('thinking');
    expect(toAnthropic({ reasoning_effort: 'turbo' })).not.toHaveProperty('thinking');
    const tools = [{ type: 'function', function: { name: 'lookup', parameters: {} } }];
    const forced = toAnthropic({
      reasoning_effort: 'high',
      tools,
      tool_choice: { type: 'function', function: { name: 'lookup' } },
    });
    expect(forced).not.toHaveProperty('thinking');
    expect(forced.tool_choice).toEqual({ type: 'tool', name: 'lookup' });
  });

  it('keeps the thinking a client already states, and gives adaptive-only models an effort', () => {
    const stated = toAnthropic({
      reasoning_effort: 'high',
      thinking: { type: 'enabled', budget_tokens: 2000 },
    });
    expect(stated.thinking).toEqual({ type: 'enabled', budget_tokens: 2000 });
    const adaptive = toAnthropic({ reasoning_effort: 'xhigh' }, 'claude-opus-4-8');
    expect(adaptive).toMatchObject({
      thinking: { type: 'adaptive' },
      output_config: { effort: 'max' },
    });
  });

  it('a hub body without settings (unit callers) maps the effort the same way', () => {
    const body = anthropicRequestOf({ messages, reasoning_effort: 'medium' }, 'claude-x', 16_000);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
  });
});

describe("an Anthropic client's thinking to OpenAI and Gemini channels", () => {
  const claudeCode = (thinking: JsonObject, extra: JsonObject = {}) =>
    openAiRequestOfAnthropic({
      model: 'm',
      max_tokens: 32_000,
      messages,
      thinking,
      ...extra,
    }) as JsonObject;

  it('becomes reasoning_effort graded by its budget', () => {
    expect(claudeCode({ type: 'enabled', budget_tokens: 1024 }).reasoning_effort).toBe('low');
    expect(claudeCode({ type: 'enabled', budget_tokens: 4000 }).reasoning_effort).toBe('medium');
    expect(claudeCode({ type: 'enabled', budget_tokens: 31_999 }).reasoning_effort).toBe('high');
    expect(
      claudeCode({ type: 'adaptive' }, { output_config: { effort: 'low' } }).reasoning_effort,
    ).toBe('low');
    expect(claudeCode({ type: 'disabled' })).not.toHaveProperty('reasoning_effort');
  });

  it('reaches a Gemini channel as thinkingConfig with thoughts included', () => {
    const hub = claudeCode({ type: 'enabled', budget_tokens: 10_000 });
    const gemini = geminiChatBody(hub, 'gemini-2.5-pro');
    expect(gemini.generationConfig).toMatchObject({
      thinkingConfig: { thinkingBudget: 24_576, includeThoughts: true },
    });
  });

  it('grades budgets and efforts as documented', () => {
    expect(effortOfThinking(undefined, undefined)).toBeUndefined();
    expect(effortOfThinking({ type: 'enabled' }, undefined)).toBe('medium');
    expect(effortOfThinking({ type: 'adaptive' }, { effort: 'max' })).toBe('high');
    expect(effortOfThinking({ type: 'adaptive' }, undefined)).toBe('medium');
  });
});

describe('converted thinking replayed to an Anthropic channel', () => {
  const conversation = (signature?: string) => ({
    model: 'claude-x',
    max_tokens: 2000,
    messages: [
      { role: 'user', content: 'first' },
      {
        role: 'assistant',
        content: [
          {
            type: 'thinking',
            thinking: 'pondering',
            ...(signature === undefined ? {} : { signature }),
          },
          { type: 'text', text: 'answer' },
        ],
      },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'only', signature: '' }] },
      { role: 'user', content: 'second' },
    ],
  });

  it('drops a block without a signature (and a turn left empty), never sends it empty-signed', () => {
    const body = conversation('');
    const raw = Buffer.from(JSON.stringify(body));
    const sent = bodyOf(anthropicNativeRequest(raw, body, channel, 'claude-x', false, {}).body);
    expect(sent.messages).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'text', text: 'answer' }] },
      { role: 'user', content: 'second' },
    ]);
    expect(JSON.stringify(sent)).not.toContain('"signature":""');
  });

  it('keeps an upstream-signed block as it came', () => {
    const signed = {
      model: 'claude-x',
      messages: [
        { role: 'user', content: 'first' },
        {
          role: 'assistant',
          content: [{ type: 'thinking', thinking: 'pondering', signature: 'EqQBCkgIARAB' }],
        },
      ],
    };
    expect(withoutUnsignedThinking(signed)).toBe(signed);
    const raw = Buffer.from(JSON.stringify(signed));
    expect(anthropicNativeRequest(raw, signed, channel, 'claude-x', false, {}).body).toBe(raw);
  });

  it('treats a block with no signature field like an empty one', () => {
    const body = conversation();
    const kept = withoutUnsignedThinking(body).messages as JsonObject[];
    expect(JSON.stringify(kept)).not.toContain('pondering');
  });
});
