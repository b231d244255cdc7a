import { describe, expect, it } from 'vitest';
import { mergeLocales } from './locales';

describe('mergeLocales', () => {
  it('puts each feature’s texts side by side in every language', () => {
    // given two features with their own top-level keys
    const a = { 'zh-CN': { a: { title: '甲' } }, en: { a: { title: 'A' } } };
    const b = { 'zh-CN': { b: { title: '乙' } }, en: { b: { title: 'B' } } };

    // when they are merged
    const merged = mergeLocales(a, b);

    // then each language holds both
    expect(merged['zh-CN']).toEqual({ a: { title: '甲' }, b: { title: '乙' } });
    expect(merged.en).toEqual({ a: { title: 'A' }, b: { title: 'B' } });
  });

  it('refuses two features claiming the same key', () => {
    // given two features both writing under `a`
    const first = { 'zh-CN': { a: { x: '一' } }, en: { a: { x: 'one' } } };
    const second = { 'zh-CN': { a: { y: '二' } }, en: { a: { y: 'two' } } };

    // when merged, then the second would hide the first: it throws
    expect(() => mergeLocales(first, second)).toThrow('"a"');
  });
});
