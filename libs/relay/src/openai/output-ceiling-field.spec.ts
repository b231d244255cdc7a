import { bodyWithCeiling, rawWithCeiling } from './output-ceiling-field';

const raw = (body: object) => Buffer.from(JSON.stringify(body));
const parsed = (bytes: Buffer) => JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;

describe('rawWithCeiling', () => {
  it('adds max_tokens to a chat body without a ceiling, spliced in (the prompt bytes untouched)', () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi  there' }] };
    const bytes = Buffer.from(
      '{"model":"gpt-4o",  "messages":[{"role":"user","content":"hi  there"}] }',
    );
    const out = rawWithCeiling(bytes, body, 'chat', 20, 'gpt-4o');
    expect(out.raw.toString()).toBe(
      '{"model":"gpt-4o",  "messages":[{"role":"user","content":"hi  there"}] ,"max_tokens":20}',
    );
    expect(out.body).toEqual({ ...body, max_tokens: 20 });
  });

  it("adds max_completion_tokens for OpenAI's reasoning models", () => {
    for (const model of ['o1', 'o3-mini', 'o4-mini', 'gpt-5', 'gpt-5-mini']) {
      const body = { model, messages: [] };
      expect(parsed(rawWithCeiling(raw(body), body, 'chat', 9, model).raw)).toEqual({
        ...body,
        max_completion_tokens: 9,
      });
    }
  });

  it('keeps a client ceiling at or below the ceiling byte for byte', () => {
    const body = { model: 'm', max_tokens: 20 };
    const bytes = raw(body);
    expect(rawWithCeiling(bytes, body, 'chat', 20, 'm').raw).toBe(bytes);
    expect(rawWithCeiling(bytes, body, 'chat', 50, 'm').raw).toBe(bytes);
  });

  it('lowers every ceiling field the client set above it', () => {
    const body = { model: 'm', max_tokens: 500, max_completion_tokens: 400 };
    expect(parsed(rawWithCeiling(raw(body), body, 'chat', 30, 'm').raw)).toEqual({
      model: 'm',
      max_tokens: 30,
      max_completion_tokens: 30,
    });
  });

  it('replaces a ceiling that is not a positive integer', () => {
    for (const bad of [0, -5, 2.5, '20', null]) {
      const body = { model: 'm', max_tokens: bad };
      expect(parsed(rawWithCeiling(raw(body), body, 'chat', 7, 'm').raw).max_tokens).toBe(7);
    }
  });

  it.each([
    ['completions', 'max_tokens'],
    ['responses', 'max_output_tokens'],
    ['anthropic', 'max_tokens'],
  ] as const)('%s carries it in %s', (wire, field) => {
    const body = { model: 'm', [field]: 100 };
    expect(parsed(rawWithCeiling(raw(body), body, wire, 10, 'm').raw)[field]).toBe(10);
    const bare = { model: 'm' };
    expect(parsed(rawWithCeiling(raw(bare), bare, wire, 10, 'm').raw)[field]).toBe(10);
  });

  it("Gemini's generationConfig.maxOutputTokens, the rest of the config kept", () => {
    const body = { contents: [], generationConfig: { temperature: 0.2, maxOutputTokens: 900 } };
    expect(parsed(rawWithCeiling(raw(body), body, 'gemini', 64, 'g').raw)).toEqual({
      contents: [],
      generationConfig: { temperature: 0.2, maxOutputTokens: 64 },
    });
    const bare = { contents: [] };
    expect(parsed(rawWithCeiling(raw(bare), bare, 'gemini', 64, 'g').raw)).toEqual({
      contents: [],
      generationConfig: { maxOutputTokens: 64 },
    });
    const small = { contents: [], generationConfig: { maxOutputTokens: 8 } };
    expect(bodyWithCeiling(small, 'gemini', 64, 'g')).toBe(small);
  });
});
