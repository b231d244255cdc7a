import { v8FlagGiven, v8SwitchGiven } from './v8-flag-given';

describe('v8FlagGiven', () => {
  it('finds the flag with its value attached or after it, dashed or underscored', () => {
    expect(v8FlagGiven(['--max-semi-space-size=16'], '--max-semi-space-size')).toBe(true);
    expect(v8FlagGiven(['--max-semi-space-size', '16'], '--max-semi-space-size')).toBe(true);
    expect(v8FlagGiven(['--max_semi_space_size=8'], '--max-semi-space-size')).toBe(true);
  });

  it('does not take another flag that begins the same way for it', () => {
    expect(v8FlagGiven([], '--max-semi-space-size')).toBe(false);
    expect(v8FlagGiven(['--max-semi-space-sizes=4'], '--max-semi-space-size')).toBe(false);
    expect(v8FlagGiven(['--max-old-space-size=512'], '--max-semi-space-size')).toBe(false);
  });
});

describe('v8SwitchGiven', () => {
  it('finds a switch turned on or off, dashed or underscored', () => {
    const flag = 'allocation-site-pretenuring';
    for (const given of [
      '--allocation-site-pretenuring',
      '--no-allocation-site-pretenuring',
      '--noallocation-site-pretenuring',
      '--no_allocation_site_pretenuring',
    ])
      expect(v8SwitchGiven([given], flag)).toBe(true);
    expect(v8SwitchGiven([], flag)).toBe(false);
    expect(v8SwitchGiven(['--allocation-site-pretenuring-x'], flag)).toBe(false);
  });
});
