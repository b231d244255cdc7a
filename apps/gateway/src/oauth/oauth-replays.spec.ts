import { OAuthReplays } from './oauth-replays';

describe('OAuthReplays', () => {
  it('accepts a value once until it expires, per scope', () => {
    const replays = new OAuthReplays();
    expect(replays.consume('github', 'code', 2000, 1000)).toBe(true);
    expect(replays.consume('github', 'code', 2000, 1500)).toBe(false);
    expect(replays.consume('wechat', 'code', 2000, 1500)).toBe(true);
    // Past its expiry it is forgotten (the provider's code is void by then anyway).
    expect(replays.consume('github', 'code', 4000, 2500)).toBe(true);
  });

  it('forgets expired values as new ones come', () => {
    const replays = new OAuthReplays();
    for (let i = 0; i < 10; i += 1) replays.consume('state', `s${i}`, 100, 0);
    expect(replays.size).toBe(10);
    replays.consume('state', 'late', 500, 200);
    expect(replays.size).toBe(1);
  });
});
