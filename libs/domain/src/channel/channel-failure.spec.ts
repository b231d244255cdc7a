import { failureDisablesChannel } from './channel-failure';

describe('failureDisablesChannel', () => {
  it.each([
    [{ status: 401, message: 'Incorrect API key' }, 1, true],
    [{ status: 403, message: 'forbidden' }, 24, true],
    [{ status: 403, message: 'model not allowed' }, 1, false],
    [{ status: 429, message: 'Rate limit reached', code: 'rate_limit_exceeded' }, 1, false],
    [{ status: 429, message: 'quota', type: 'insufficient_quota' }, 1, true],
    [{ status: 400, message: 'x', code: 'account_deactivated' }, 1, true],
    [{ status: 500, message: 'The server had an error' }, 1, false],
    [{ status: 400, message: 'YOU EXCEEDED YOUR CURRENT QUOTA, please check' }, 1, true],
    [{ status: 0, message: 'connect ECONNREFUSED' }, 1, false],
  ])('%j on type %i → %s', (failure, type, expected) => {
    expect(failureDisablesChannel(failure, type)).toBe(expected);
  });

  it('ignores a keyword the client sent itself (upstreams quote the request in their errors)', () => {
    const echoed = { status: 400, message: "Invalid value: 'You exceeded your current quota'" };
    const sent = (keyword: string) => keyword === 'You exceeded your current quota';
    expect(failureDisablesChannel(echoed, 1, undefined, sent)).toBe(false);
    // Another keyword in the same message still counts, and so do codes and statuses.
    const both = { ...echoed, message: `${echoed.message}; Permission denied` };
    expect(failureDisablesChannel(both, 1, undefined, sent)).toBe(true);
    expect(failureDisablesChannel({ ...echoed, status: 401 }, 1, undefined, sent)).toBe(true);
  });
});
