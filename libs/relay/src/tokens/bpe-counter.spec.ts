import { countTokens as libraryCount, encode as libraryEncode } from 'gpt-tokenizer';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/cjs/encodingParams/constants';
import { madeUpWords } from '../testing/made-up-words';
import { BpeCounter, MERGED_CHARS_KEPT, MERGED_PIECES_KEPT } from './bpe-counter';
import { loadO200kRanks } from './o200k-ranks';

/** Code point ranges of several scripts, digits, punctuation, whitespace, marks and emoji. */
const SCRIPTS: Array<[number, number]> = [
  [0x20, 0x7f],
  [0x09, 0x0e],
  [0xc0, 0x100],
  [0x300, 0x370],
  [0x400, 0x500],
  [0x600, 0x700],
  [0x3040, 0x3100],
  [0x4e00, 0xa000],
  [0xac00, 0xd7a4],
  [0x1f300, 0x1f650],
];

/**
 * What the split pattern's edges turn on: contractions and their letters, runs of capitals with
 * modifier letters (ʰ) and titlecase (ǅ), digits of two scripts, whitespace runs and line ends,
 * punctuation before words, CJK, a combining mark, an emoji and a joiner.
 */
const EDGES = [
  ...'abstlvedrmßςSTLZΣʰǅ',
  ...[' ', ' ', '  ', '\t', '\n', '\r', '\r\n', '\u00a0', '\u3000'],
  ...["'", "'", '.', ',', '-', '/', '!', '_', '1', '2', '9', '٣', '中', '文', 'é', '\u0301'],
  ...['😀', '\u200d', '\ufe0f'],
];

/** A generator of the same numbers in every run. */
function seeded(seed: number): (below: number) => number {
  return (below) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % below;
  };
}

/** Always the same texts: `count` of up to `length` code points drawn from SCRIPTS. */
function mixedTexts(count: number, length: number): string[] {
  const next = seeded(2024);
  return Array.from({ length: count }, () => {
    let text = '';
    for (let i = 1 + next(length); i > 0; i--) {
      const [low, high] = SCRIPTS[next(SCRIPTS.length)]!;
      text += String.fromCodePoint(low + next(high - low));
    }
    return text;
  });
}

describe('BpeCounter (o200k_base)', () => {
  const counter = new BpeCounter(loadO200kRanks(), O200K_TOKEN_SPLIT_REGEX);

  it("counts as gpt-tokenizer's o200k_base encoder does", () => {
    const samples = [
      'hello world',
      'Привет мир 你好 🌍🚀 — ﬁ ½',
      '\u0000 tab\there\r\nnew  lines   ',
      'function f(x) { return x ** 2; } // code 1234567',
      '🙂'.repeat(50) + '\u{10ffff}',
      'They\'ll say it\'s JSON: {"a":[1,2,3]}',
      ...mixedTexts(600, 120),
      madeUpWords(300).join(''),
    ];
    const differ = samples.filter((text) => counter.count(text) !== libraryCount(text));
    expect(differ).toEqual([]);
  });

  it("counts a special token's text (<|endoftext|>, <|im_start|>…) as ordinary text", () => {
    const text = 'a <|endoftext|> b <|im_start|>user<|im_sep|> c <|fim_middle|><|endofprompt|>';
    // The library throws on these unless told to treat none as special.
    expect(() => libraryCount(text)).toThrow(/special token/);
    const ordinary = libraryEncode(text, { disallowedSpecial: new Set() }).length;
    expect(counter.count(text)).toBe(ordinary);
    // More than one token each: their text, not their special ids.
    expect(ordinary).toBeGreaterThan(20);
  });

  it('names where the last two parts of a text begin: appending text re-cuts no part before them', () => {
    const next = seeded(7);
    const draw = (parts: number) =>
      Array.from({ length: 1 + next(parts) }, () => EDGES[next(EDGES.length)]).join('');
    for (let i = 0; i < 3000; i++) {
      const [text, more] = [draw(10), draw(6)];
      const tokens = counter.count(text);
      const { tailStart, tailTokens } = counter;
      expect(counter.count(text.slice(tailStart))).toBe(tailTokens);
      const whole = counter.count(text + more);
      expect(tokens - tailTokens + counter.count(text.slice(tailStart) + more)).toBe(whole);
    }
    // `don` then `'`: the apostrophe waits for its letter, and `don't` is cut anew from `don`.
    counter.count("I don'");
    expect(counter.tailStart).toBe(1);
    expect(counter.tailTokens).toBe(counter.count(" don'"));
    counter.count('');
    expect([counter.tailStart, counter.tailTokens]).toEqual([0, 0]);
  });

  it('merges equal pairs leftmost first, as the library does (a run of one letter in a word)', () => {
    // Words where merging the rightmost of equal pairs first ends with another count.
    const known = [
      ' hyzsssstm',
      ' mohttttbc',
      ' xtfvvvvrb',
      ' tywwwnadg',
      ' idrjlllrq',
      ' mrrrxabth',
    ];
    const letters = 'abcdefghijklmnopqrstuvwxyz'.split('');
    const runs = letters.flatMap((l) => [3, 4, 5].map((n) => ` mo${l.repeat(n)}bc`));
    const differ = [...known, ...runs].filter((text) => counter.count(text) !== libraryCount(text));
    expect(differ).toEqual([]);
  });

  it('counts one unbroken piece of thousands of characters as the library does', () => {
    const cjk = Array.from({ length: 3000 }, (_, i) =>
      String.fromCodePoint(0x4e00 + ((i * 7919) % 20000)),
    ).join('');
    const letters = 'qz'.repeat(1500) + 'abcdefghij'.repeat(100);
    for (const text of [cjk, letters]) expect(counter.count(text)).toBe(libraryCount(text));
  });

  it('keeps at most MERGED_PIECES_KEPT merged pieces, and counts the same once it was emptied', () => {
    const fresh = new BpeCounter(loadO200kRanks(), O200K_TOKEN_SPLIT_REGEX);
    const kept = () => (fresh as unknown as { merged: Map<string, number> }).merged.size;
    const words = madeUpWords(MERGED_PIECES_KEPT + 500);
    const text = (from: number) => words.slice(from, from + 500).join('');
    for (let from = 0; from < words.length; from += 500) {
      expect(fresh.count(text(from))).toBe(libraryCount(text(from)));
      expect(kept()).toBeLessThanOrEqual(MERGED_PIECES_KEPT);
    }
    expect(kept()).toBeLessThan(MERGED_PIECES_KEPT);
    // Counted again from the kept pieces: the same.
    expect(fresh.count(text(words.length - 500))).toBe(libraryCount(text(words.length - 500)));
  });

  it('keeps at most MERGED_CHARS_KEPT characters of pieces: a caller sending long runs cannot fill memory with them', () => {
    const fresh = new BpeCounter(loadO200kRanks(), O200K_TOKEN_SPLIT_REGEX);
    const kept = () => [...(fresh as unknown as { merged: Map<string, number> }).merged.keys()];
    const runs = Array.from({ length: 60 }, (_, i) => 'qz'.repeat(3000 + i) + 'x'); // 6 000+ each
    for (const run of runs) {
      expect(fresh.count(run)).toBe(libraryCount(run));
      expect(kept().reduce((sum, piece) => sum + piece.length, 0)).toBeLessThanOrEqual(
        MERGED_CHARS_KEPT,
      );
    }
    // A long piece is kept while it fits: counted again, the same.
    expect(kept()).toContain(runs.at(-1));
    expect(fresh.count(runs.at(-1)!)).toBe(libraryCount(runs.at(-1)!));
  });
});
