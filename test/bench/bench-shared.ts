/** What the mock upstream process and the harness agree on. */
export const STREAM_CHUNKS = 50;
export const STREAM_CONTENT = Array.from({ length: STREAM_CHUNKS }, (_, i) => `c${i} `).join('');
export const JSON_MODEL = 'gpt-4o-mini';
export const SLOW_MODEL = 'gpt-3.5-turbo';
export const STREAM_MODEL = 'gpt-4o';

export const CHAT_BODY = JSON.stringify({
  model: JSON_MODEL,
  messages: [{ role: 'user', content: 'Say hello in one short sentence.' }],
  max_tokens: 16,
});
export const SLOW_BODY = CHAT_BODY.replace(JSON_MODEL, SLOW_MODEL);
/**
 * The ceiling is above the 101 tokens (o200k) of STREAM_CONTENT: the mock upstream ignores
 * max_tokens, and the relay cuts a stream that passes its ceiling (S4 counted those cuts as lost
 * streams while the ceiling was 64).
 */
export const STREAM_BODY = JSON.stringify({
  model: STREAM_MODEL,
  messages: [{ role: 'user', content: 'Count.' }],
  max_tokens: 128,
  stream: true,
});

/** The words the seeded usernames are made of (S8), which the console reader's searches use too. */
export const USERNAME_WORDS = [
  'amber',
  'birch',
  'cedar',
  'delta',
  'ember',
  'fjord',
  'grove',
  'harbor',
  'indigo',
  'juniper',
] as const;
