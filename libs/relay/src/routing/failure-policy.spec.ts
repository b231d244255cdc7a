import {
  type AttemptFailure,
  countsAgainstBudget,
  disableReason,
  FailureBudget,
  failureCoolsChannel,
  mapStatusCode,
  parseKeywords,
  parseStatusRanges,
  shouldRetry,
} from './failure-policy';

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

describe('shouldRetry', () => {
  const free = { retriesLeft: 2, pinned: false };
  it.each([
    [429, true],
    [500, true],
    [503, true],
    [401, true],
    [307, true],
    [400, false],
    [408, false],
    [504, false],
    [524, false],
    [200, false],
  ])('status %i → %s', (status, expected) =>
    expect(shouldRetry(http(status), free)).toBe(expected),
  );

  it('retries network failures, not timeouts; never when pinned or out of retries', () => {
    expect(shouldRetry({ kind: 'network', message: 'ECONNREFUSED' }, free)).toBe(true);
    expect(shouldRetry({ kind: 'timeout', message: 't' }, free)).toBe(false);
    expect(shouldRetry(http(500), { retriesLeft: 0, pinned: false })).toBe(false);
    expect(shouldRetry(http(500), { retriesLeft: 3, pinned: true })).toBe(false);
  });

  it('honours edited status ranges', () => {
    const ranges = parseStatusRanges('429, 500-502, junk, 600-500');
    expect(ranges).toEqual([
      [429, 429],
      [500, 502],
    ]);
    expect(shouldRetry(http(503), { ...free, ranges })).toBe(false);
    expect(shouldRetry(http(429), { ...free, ranges })).toBe(true);
  });
});

describe('disableReason', () => {
  it.each([
    ['401', http(401), 1, true],
    ['403 on Gemini only', http(403), 24, true],
    ['403 elsewhere', http(403), 1, false],
    ['invalid_api_key code', http(400, { code: 'invalid_api_key' }), 1, true],
    ['insufficient_quota type', http(429, { type: 'insufficient_quota' }), 1, true],
    [
      'keyword, any case',
      http(429, { message: 'you exceeded your CURRENT quota, see billing' }),
      1,
      true,
    ],
    ['plain 429', http(429, { message: 'Rate limit reached' }), 1, false],
    ['500', http(500), 1, false],
  ])('%s', (_name, failure, type, disables) => {
    expect(disableReason(failure, type) !== undefined).toBe(disables);
  });

  it('puts the status, code and message in the reason; network errors never disable', () => {
    expect(
      disableReason(http(401, { code: 'invalid_api_key', message: 'Incorrect API key' }), 1),
    ).toBe('status 401, code invalid_api_key: Incorrect API key');
    expect(disableReason({ kind: 'network', message: 'x' }, 1)).toBeUndefined();
  });

  it('uses the keyword option', () => {
    const keywords = parseKeywords('  \nbalance exhausted\n\n');
    expect(keywords).toEqual(['balance exhausted']);
    expect(disableReason(http(402, { message: 'Balance exhausted' }), 1, keywords)).toBeDefined();
    expect(
      disableReason(http(402, { message: 'Your credit balance is too low' }), 1, keywords),
    ).toBeUndefined();
  });
});

describe('failureCoolsChannel', () => {
  it.each([
    ['400: the request was malformed', http(400), false],
    ['413: the request was too large', http(413), false],
    ['422: the request was unprocessable', http(422), false],
    ['401', http(401), true],
    ['404: the channel lacks the model', http(404), true],
    ['429', http(429), true],
    ['500', http(500), true],
  ])('%s → %s', (_name, failure, cools) => {
    expect(failureCoolsChannel(failure)).toBe(cools);
  });

  it('cools on network errors and timeouts', () => {
    expect(failureCoolsChannel({ kind: 'network', message: 'ECONNRESET' })).toBe(true);
    expect(failureCoolsChannel({ kind: 'timeout', message: 'no answer' })).toBe(true);
  });
});

describe('FailureBudget', () => {
  it('trips after N failures inside the window, forgets old ones and resets on success', () => {
    let now = 0;
    const budget = new FailureBudget(() => now);
    expect(budget.record(1, 'm', 3, 60_000)).toBe(false);
    now = 10_000;
    expect(budget.record(1, 'm', 3, 60_000)).toBe(false);
    now = 65_000; // the first failure left the window, the second is still in
    expect(budget.record(1, 'm', 3, 60_000)).toBe(false);
    expect(budget.record(1, 'm', 3, 60_000)).toBe(true);
    expect(budget.record(1, 'm', 3, 60_000)).toBe(false); // tripping starts a new count
    budget.record(2, 'm', 2, 60_000);
    budget.succeeded(2, 'm');
    expect(budget.record(2, 'm', 2, 60_000)).toBe(false);
    expect(budget.record(3, 'm', 0, 60_000)).toBe(false); // off
  });

  it('counts 5xx, network errors and timeouts only', () => {
    expect(countsAgainstBudget(http(502))).toBe(true);
    expect(countsAgainstBudget(http(429))).toBe(false);
    expect(countsAgainstBudget({ kind: 'timeout', message: '' })).toBe(true);
  });
});

describe('mapStatusCode', () => {
  it('maps listed codes, ignores junk', () => {
    const mapping = { '429': '500', '400': 'abc', '404': '999' };
    expect(mapStatusCode(429, mapping)).toBe(500);
    expect(mapStatusCode(400, mapping)).toBe(400);
    expect(mapStatusCode(404, mapping)).toBe(404);
    expect(mapStatusCode(502, mapping)).toBe(502);
  });
});
