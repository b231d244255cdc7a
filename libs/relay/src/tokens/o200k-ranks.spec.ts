import { loadO200kRanks, NO_RANK, NOT_ASCII, readTiktokenRanks } from './o200k-ranks';

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const file = (lines: string) => Buffer.from(lines, 'latin1');

describe('loadO200kRanks', () => {
  const table = loadO200kRanks();

  it("holds gpt-tokenizer's o200k_base ranks: each token's bytes, and each token found by them", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the library's own array
    const theirs = (require('gpt-tokenizer/cjs/bpeRanks/o200k_base') as { default: unknown[] })
      .default as Array<string | number[]>;
    expect(table.size).toBe(theirs.length);
    let byteTokens = 0;
    const wrong: number[] = [];
    theirs.forEach((token, rank) => {
      const bytes = typeof token === 'string' ? utf8(token) : new Uint8Array(token);
      if (typeof token !== 'string') byteTokens += 1;
      const held = table.tokenBytes(rank);
      if (!Buffer.from(held).equals(bytes) || table.rankOf(bytes, 0, bytes.length) !== rank)
        wrong.push(rank);
    });
    expect(wrong).toEqual([]);
    // Both kinds occur: text tokens and tokens whose bytes are not UTF-8 on their own.
    expect(byteTokens).toBeGreaterThan(1000);
    expect(table.tokenBytes(0)).toEqual(utf8('!'));
  });

  it('finds a token inside a longer key, and nothing for bytes that are no token', () => {
    const key = utf8('xx hello yy');
    const hello = table.rankOf(utf8(' hello'), 0, 6);
    expect(hello).not.toBe(NO_RANK);
    expect(table.rankOf(key, 2, 8)).toBe(hello);
    expect(table.rankOf(utf8('qzxqzxqzxqzx'), 0, 12)).toBe(NO_RANK);
  });

  it('looks ASCII text up by its characters, and says when a text is not ASCII', () => {
    expect(table.rankOfAscii(' hello')).toBe(table.rankOf(utf8(' hello'), 0, 6));
    expect(table.rankOfAscii('qzxqzxqzxqzx')).toBe(NO_RANK);
    expect(table.rankOfAscii('héllo')).toBe(NOT_ASCII);
  });
});

describe('readTiktokenRanks', () => {
  it('decodes base64 with and without padding, and leaves a skipped rank empty', () => {
    // 'IQ==' is "!", 'YWI=' "ab", 'YWJj' "abc"; rank 2 is skipped.
    const table = readTiktokenRanks(file('IQ== 0\nYWI= 1\nYWJj 3\n'));
    expect(table.size).toBe(4);
    expect(Buffer.from(table.tokenBytes(1)).toString()).toBe('ab');
    expect(table.tokenBytes(2)).toHaveLength(0);
    expect(table.rankOf(utf8('abc'), 0, 3)).toBe(3);
    expect(table.rankOfAscii('!')).toBe(0);
  });

  it.each([
    ['a rank out of order', 'IQ== 1\nIg== 0\n', /rank out of order/],
    ['a line without a rank', 'IQ==\n', /without a rank/],
    ['a rank that is no number', 'IQ== x\n', /no number/],
    ['a token that is not base64', 'I*== 0\n', /not base64/],
  ])('refuses a file with %s', (_, lines, message) => {
    expect(() => readTiktokenRanks(file(lines))).toThrow(message);
  });
});
