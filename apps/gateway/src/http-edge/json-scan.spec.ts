import { hasBadCharacter, scanJson, type JsonLimits } from './json-scan';

const limits: JsonLimits = { maxDepth: 4, maxValues: 10, maxStringLength: 8 };

describe('scanJson', () => {
  it('passes ordinary bodies', () => {
    expect(scanJson('{"a":1,"b":[1,2],"c":{"d":"text"}}', limits)).toBeNull();
    expect(
      scanJson('{"a":"\\u00e9\\ud83d\\ude00"}', { ...limits, maxStringLength: 18 }),
    ).toBeNull();
  });

  it('refuses nesting beyond the depth, wherever it is', () => {
    expect(scanJson('[[[[1]]]]', limits)).toBeNull();
    expect(scanJson('[[[[[1]]]]]', limits)).toBe('too_deep');
    expect(scanJson('{"a":{"b":{"c":{"d":{"e":1}}}}}', limits)).toBe('too_deep');
    // Brackets inside strings are text, not nesting.
    expect(scanJson('{"a":"[[[[[[["}', limits)).toBeNull();
  });

  it('counts members and elements over the whole body', () => {
    const eleven = `{${Array.from({ length: 11 }, (_, i) => `"k${i}":1`).join(',')}}`;
    expect(scanJson(eleven, { ...limits, maxValues: 100 })).toBeNull();
    expect(scanJson(eleven, limits)).toBe('too_many_values');
  });

  it('measures strings in raw characters, escapes included', () => {
    expect(scanJson('{"a":"12345678"}', limits)).toBeNull();
    expect(scanJson('{"a":"123456789"}', limits)).toBe('string_too_long');
    expect(scanJson('{"a":"\\"\\"\\"\\"\\""}', limits)).toBe('string_too_long');
  });

  it('refuses NUL and lone surrogates, which only escapes can carry', () => {
    expect(scanJson('{"a":"\\u0000"}', limits)).toBe('bad_character');
    expect(scanJson('{"a":"\\ud800"}', limits)).toBe('bad_character');
    expect(scanJson('{"a":"\\udc00x"}', limits)).toBe('bad_character');
    expect(scanJson('{"a":"\\ud800\\u0041"}', limits)).toBe('bad_character');
  });

  it('stays linear: a 2 MB body of keys and a 1 MB nesting are refused within milliseconds', () => {
    const huge = `{${Array.from({ length: 200_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
    const started = performance.now();
    expect(scanJson(huge, { maxDepth: 16, maxValues: 512, maxStringLength: 16384 })).toBe(
      'too_many_values',
    );
    const deep = '['.repeat(1_000_000);
    expect(scanJson(deep, { maxDepth: 16, maxValues: 512, maxStringLength: 16384 })).toBe(
      'too_deep',
    );
    // Typically a few ms; the bound only has to tell linear from quadratic (minutes here), so a
    // loaded CI machine cannot trip it.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('hasBadCharacter', () => {
  it('finds NUL and lone surrogates, not ordinary text', () => {
    expect(hasBadCharacter('plain 文字 😀')).toBe(false);
    expect(hasBadCharacter('a\u0000')).toBe(true);
    expect(hasBadCharacter('a\ud800')).toBe(true);
    expect(hasBadCharacter('\udc00a')).toBe(true);
  });
});
