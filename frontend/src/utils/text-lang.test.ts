import { describe, expect, it } from 'vitest';
import { textLang } from './text-lang';

describe('textLang', () => {
  it('marks text holding Chinese characters as zh-CN', () => {
    expect(textLang('默认分组')).toBe('zh-CN');
    expect(textLang('{"vip":"vip分组"}')).toBe('zh-CN');
  });

  it('leaves other text unmarked', () => {
    expect(textLang('Default group')).toBeUndefined();
    expect(textLang('')).toBeUndefined();
  });
});
