import { countTokens as libraryCount } from 'gpt-tokenizer';
import { loadO200kRanks } from './o200k-ranks';
import { countText } from './token-estimate';

describe('loadO200kRanks', () => {
  it("reads the same ranks as gpt-tokenizer's generated module, text and byte tokens alike", () => {
    const ours = loadO200kRanks();
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the library's own array
    const theirs = (require('gpt-tokenizer/cjs/bpeRanks/o200k_base') as { default: unknown[] })
      .default;
    expect(ours.length).toBe(theirs.length);
    expect(ours).toEqual(theirs);
    // Both shapes occur: text tokens and tokens whose bytes are not UTF-8.
    expect(ours.some((token) => Array.isArray(token))).toBe(true);
    expect(ours[0]).toBe('!');
  });

  it("counts as gpt-tokenizer's o200k_base does", () => {
    const samples = [
      'hello world',
      'Привет мир 你好 🌍🚀 — ﬁ ½',
      '\u0000 tab\there\r\nnew  lines   ',
      'function f(x) { return x ** 2; } // code',
      '🙂'.repeat(50) + '\u{10ffff}',
    ];
    for (const text of samples) expect(countText(text)).toBe(libraryCount(text));
  });
});
