import { describe, expect, it } from 'vitest';
import { initialGroup, matchesModelName } from './model-filter';

describe('matchesModelName (new-api: contains, ignoring case)', () => {
  it.each([
    ['gpt-4o-mini', '', true],
    ['gpt-4o-mini', '4O', true],
    ['gpt-4o-mini', '  mini ', true],
    ['Claude-3-Opus', 'claude-3', true],
    ['gpt-4o-mini', 'gpt4', false],
    ['gpt-4o-mini', 'claude', false],
  ])('%s with %j → %s', (name, filter, expected) => {
    expect(matchesModelName(name, filter)).toBe(expected);
  });
});

describe('initialGroup', () => {
  const usable = { default: '默认分组', vip: 'vip分组' };
  it('starts on the own group, else default, else the first', () => {
    expect(initialGroup(usable, 'vip')).toBe('vip');
    expect(initialGroup(usable, 'gone')).toBe('default');
    expect(initialGroup(usable, null)).toBe('default');
    expect(initialGroup({ svip: 's', vip: 'v' }, null)).toBe('svip');
    expect(initialGroup({}, null)).toBe('');
  });
});
