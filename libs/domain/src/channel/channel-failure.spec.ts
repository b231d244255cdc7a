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
});
