import { type AttemptFailure, parseStatusRanges } from './failure-policy';
import {
  fallbackReason,
  isContentFilterRefusal,
  isContextWindowRefusal,
  parseModelFallbacks,
} from './fallback-policy';

const http = (
  status: number,
  over: Partial<{ message: string; type: string; code: string }> = {},
): AttemptFailure => ({
  kind: 'http',
  status,
  message: over.message ?? 'upstream said no',
  type: over.type ?? '',
  code: over.code ?? '',
});

const off = { onContextWindow: false, onContentFilter: false };
const on = { onContextWindow: true, onContentFilter: true };

describe('fallbackReason', () => {
  it.each([
    [500, 'failed'],
    [429, 'failed'],
    [503, 'failed'],
    [400, undefined],
    [504, undefined],
  ])('status %i → %s (the classes a retry follows)', (status, expected) =>
    expect(fallbackReason(http(status), off)).toBe(expected),
  );

  it('moves on after network failures, not after timeouts (the upstream may still bill)', () => {
    expect(fallbackReason({ kind: 'network', message: 'ECONNRESET' }, off)).toBe('failed');
    expect(fallbackReason({ kind: 'timeout', message: 't' }, off)).toBeUndefined();
  });

  it('follows edited retry statuses', () => {
    const ranges = parseStatusRanges('429');
    expect(fallbackReason(http(500), { ...off, ranges })).toBeUndefined();
    expect(fallbackReason(http(429), { ...off, ranges })).toBe('failed');
  });

  it('moves on after a context-window refusal only with its switch', () => {
    const refusal = http(400, { code: 'context_length_exceeded' });
    expect(fallbackReason(refusal, off)).toBeUndefined();
    expect(fallbackReason(refusal, on)).toBe('context_window');
  });

  it('moves on after a content-filter refusal only with its switch, whatever its status', () => {
    const refusal = http(403, { code: 'content_policy_violation' });
    expect(fallbackReason(refusal, off)).toBeUndefined();
    expect(fallbackReason(refusal, on)).toBe('content_filter');
  });
});

describe('the refusals', () => {
  it.each([
    ["This model's maximum context length is 8192 tokens. However, you requested 9000"],
    ['Input exceeds the context window of this model'],
    ['the context_length was exceeded'],
    ['prompt is too long: 210000 tokens > 200000 maximum'],
  ])('a 400 saying "%s" is a context-window refusal', (message) =>
    expect(isContextWindowRefusal(http(400, { message }))).toBe(true),
  );

  it('is not a context-window refusal on another status or message', () => {
    expect(isContextWindowRefusal(http(500, { code: 'context_length_exceeded' }))).toBe(false);
    expect(isContextWindowRefusal(http(400, { message: 'temperature out of range' }))).toBe(false);
    expect(isContextWindowRefusal({ kind: 'network', message: 'context length exceeded' })).toBe(
      false,
    );
  });

  it('reads content-filter codes and types (OpenAI, Azure)', () => {
    expect(isContentFilterRefusal(http(400, { code: 'content_filter' }))).toBe(true);
    expect(isContentFilterRefusal(http(400, { code: 'ResponsibleAIPolicyViolation' }))).toBe(true);
    expect(isContentFilterRefusal(http(400, { type: 'content_policy_violation' }))).toBe(true);
    expect(isContentFilterRefusal(http(500, { code: 'content_filter' }))).toBe(false);
    expect(isContentFilterRefusal(http(400, { code: 'invalid_value' }))).toBe(false);
  });
});

describe('parseModelFallbacks', () => {
  it('reads model → ordered fallbacks, skipping what does not fit', () => {
    const parsed = parseModelFallbacks('{"a":["b","c"],"x":"y","d":[],"e":["e",1,"f"]}');
    expect([...parsed]).toEqual([
      ['a', ['b', 'c']],
      ['e', ['f']],
    ]);
  });

  it('is empty for text that is no JSON object', () => {
    expect(parseModelFallbacks('{').size).toBe(0);
    expect(parseModelFallbacks('[["a"]]').size).toBe(0);
  });
});
