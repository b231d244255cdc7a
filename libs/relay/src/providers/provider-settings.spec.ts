import {
  DEFAULT_PROVIDER_SETTINGS,
  GEMINI_SAFETY_CATEGORIES,
  parseProviderSettings,
} from './provider-settings';

describe("provider settings: new-api's claude.*, gemini.*, global.* options parsed once", () => {
  it("defaults to new-api's: 8192 max tokens, thinking adapter on at 0.8, safety OFF, v1beta", () => {
    const s = DEFAULT_PROVIDER_SETTINGS;
    expect(s.claude).toEqual({
      headers: {},
      defaultMaxTokens: { default: 8192 },
      thinkingAdapter: true,
      thinkingBudgetRatio: 0.8,
    });
    expect(s.gemini.safety).toEqual(
      GEMINI_SAFETY_CATEGORIES.map((category) => ({ category, threshold: 'OFF' })),
    );
    expect(s.gemini.versions).toEqual({ default: 'v1beta', 'gemini-1.0-pro': 'v1' });
    expect(s.passThrough).toBe(false);
  });

  it('reads every option; header names lower-cased, a missing default filled in', () => {
    const s = parseProviderSettings({
      'claude.model_headers_settings': JSON.stringify({
        'claude-x': { 'Anthropic-Beta': ['a', 'b'], 'X-Extra': ['1'] },
      }),
      'claude.default_max_tokens': JSON.stringify({ 'claude-x': 100 }),
      'claude.thinking_adapter_enabled': 'false',
      'claude.thinking_adapter_budget_tokens_percentage': '0.5',
      'gemini.safety_settings': JSON.stringify({
        default: 'BLOCK_NONE',
        HARM_CATEGORY_HARASSMENT: 'BLOCK_ONLY_HIGH',
        HARM_CATEGORY_CIVIC_INTEGRITY: 'BLOCK_LOW_AND_ABOVE',
      }),
      'gemini.version_settings': JSON.stringify({ 'gemini-2.5-pro': 'v1alpha' }),
      'global.pass_through_request_enabled': 'true',
    });
    expect(s.claude.headers).toEqual({
      'claude-x': { 'anthropic-beta': ['a', 'b'], 'x-extra': ['1'] },
    });
    expect(s.claude.defaultMaxTokens).toEqual({ 'claude-x': 100, default: 8192 });
    expect(s.claude.thinkingAdapter).toBe(false);
    expect(s.claude.thinkingBudgetRatio).toBe(0.5);
    expect(s.gemini.safety).toEqual([
      { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' },
      { category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' },
      { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', threshold: 'BLOCK_NONE' },
      { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', threshold: 'BLOCK_NONE' },
      // a category the option names explicitly is sent too
      { category: 'HARM_CATEGORY_CIVIC_INTEGRITY', threshold: 'BLOCK_LOW_AND_ABOVE' },
    ]);
    expect(s.gemini.versions).toEqual({ 'gemini-2.5-pro': 'v1alpha', default: 'v1beta' });
    expect(s.passThrough).toBe(true);
  });

  it('ignores what does not parse (the option routes validate; a request never fails on it)', () => {
    const s = parseProviderSettings({
      'claude.model_headers_settings': 'not json',
      'claude.default_max_tokens': '[1]',
      'claude.thinking_adapter_budget_tokens_percentage': 'x',
      'gemini.safety_settings': '',
    });
    expect(s.claude.headers).toEqual({});
    expect(s.claude.defaultMaxTokens).toEqual({ default: 8192 });
    expect(s.claude.thinkingBudgetRatio).toBe(0.8);
    expect(s.gemini.safety.every((x) => x.threshold === 'OFF')).toBe(true);
  });
});
