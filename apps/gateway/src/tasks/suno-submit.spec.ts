import { sunoRetriable } from './suno-submit';

describe('sunoRetriable: which failed Suno submissions go on to another channel', () => {
  it.each([429, 307, 500, 502, 503])('retries after %i', (status) => {
    expect(sunoRetriable(status)).toBe(true);
  });

  it.each([400, 401, 403, 404, 504, 524])('answers %i as it is', (status) => {
    expect(sunoRetriable(status)).toBe(false);
  });
});
