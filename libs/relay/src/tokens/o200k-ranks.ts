import { readFileSync } from 'node:fs';

/** Ranks absent from the table (a byte sequence that is no token). */
export const NO_RANK = -1;
/** rankOfAscii's answer for a text with a character outside ASCII (look its bytes up instead). */
export const NOT_ASCII = -2;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const ASCII_MAX = 0x7f;

/** An FNV-1a hash with its high bits folded into the low ones the table indexes by. */
const folded = (hash: number) => (hash ^ (hash >>> 16)) >>> 0;

/** FNV-1a over `bytes[from, to)`. */
function hashOf(bytes: Uint8Array, from: number, to: number): number {
  let hash = FNV_OFFSET;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ bytes[i]!, FNV_PRIME);
  return folded(hash);
}

/**
 * A tokenizer's ranks keyed by their bytes, in three typed arrays instead of 200 000 strings in a
 * Map: every token's bytes end to end (`bytes`, in rank order), where each starts (`starts`, one
 * more entry than ranks), and an open-addressing hash table of rank + 1 per slot (0: empty), at
 * most 40 % full so that a miss, the common case while merging, probes one or two slots.
 * For o200k_base: 1.4 MB of bytes, 0.8 MB of starts and 2 MiB of slots, against ~14 MiB of heap
 * for gpt-tokenizer's Map and strings (docs/performance-journal.md, "The tokenizer's ranks as
 * bytes…").
 */
export class RankTable {
  private readonly mask: number;
  /** rankOfAscii's copy of its text's bytes. */
  private ascii = new Uint8Array(64);

  constructor(
    private readonly bytes: Uint8Array,
    private readonly starts: Int32Array,
    private readonly slots: Int32Array,
  ) {
    this.mask = slots.length - 1;
  }

  /** The number of ranks (gaps included). */
  get size(): number {
    return this.starts.length - 1;
  }

  /** The bytes of `rank`'s token (a view: do not write to it). */
  tokenBytes(rank: number): Uint8Array {
    return this.bytes.subarray(this.starts[rank], this.starts[rank + 1]);
  }

  /** The rank of the token whose bytes are `key[from, to)`, or NO_RANK. */
  rankOf(key: Uint8Array, from: number, to: number): number {
    return this.find(key, from, to, hashOf(key, from, to));
  }

  /**
   * The rank of the token whose bytes are `text[from, to)`'s (the whole text by default) when every
   * character is ASCII (its UTF-8 bytes are then its character codes, copied while hashing: no
   * encoder call, no substring), NO_RANK, or NOT_ASCII.
   */
  rankOfAscii(text: string, from = 0, to = text.length): number {
    const length = to - from;
    if (this.ascii.length < length) this.ascii = new Uint8Array(length * 2);
    const ascii = this.ascii;
    let hash = FNV_OFFSET;
    for (let i = 0; i < length; i++) {
      const code = text.charCodeAt(from + i);
      if (code > ASCII_MAX) return NOT_ASCII;
      ascii[i] = code;
      hash = Math.imul(hash ^ code, FNV_PRIME);
    }
    return this.find(ascii, 0, length, folded(hash));
  }

  private find(key: Uint8Array, from: number, to: number, hash: number): number {
    const length = to - from;
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return NO_RANK;
      const rank = entry - 1;
      const start = this.starts[rank]!;
      if (this.starts[rank + 1]! - start !== length) continue;
      let i = 0;
      while (i < length && this.bytes[start + i] === key[from + i]) i++;
      if (i === length) return rank;
    }
  }

  /** A table of the tokens `bytes[starts[rank], starts[rank + 1])` (an empty one is a gap). */
  static index(bytes: Uint8Array, starts: Int32Array): RankTable {
    const ranks = starts.length - 1;
    let capacity = 1;
    while (capacity * 2 < ranks * 5) capacity *= 2; // ≤ 40 % full
    const slots = new Int32Array(capacity);
    for (let rank = 0; rank < ranks; rank++) {
      const [from, to] = [starts[rank]!, starts[rank + 1]!];
      if (from === to) continue;
      let slot = hashOf(bytes, from, to) & (capacity - 1);
      while (slots[slot] !== 0) slot = (slot + 1) & (capacity - 1);
      slots[slot] = rank + 1;
    }
    return new RankTable(bytes, starts, slots);
  }
}

const PAD = '='.charCodeAt(0);
const SPACE = ' '.charCodeAt(0);
const NEWLINE = '\n'.charCodeAt(0);
const DIGIT_0 = '0'.charCodeAt(0);

/** One `<base64 token> <rank>` line of a tiktoken file, read in place. */
interface Line {
  /** Where the token's base64 starts and ends, and the next line starts. */
  from: number;
  to: number;
  next: number;
  rank: number;
}

function readLine(file: Uint8Array, at: number, line: Line): void {
  let space = at;
  while (space < file.length && file[space] !== SPACE && file[space] !== NEWLINE) space++;
  if (file[space] !== SPACE) throw new Error(`tiktoken ranks: a line without a rank at byte ${at}`);
  let end = space + 1;
  let rank = 0;
  for (; end < file.length && file[end] !== NEWLINE; end++) {
    const digit = file[end]! - DIGIT_0;
    if (digit < 0 || digit > 9)
      throw new Error(`tiktoken ranks: a rank that is no number at byte ${at}`);
    rank = rank * 10 + digit;
  }
  if (end === space + 1) throw new Error(`tiktoken ranks: a line without a rank at byte ${at}`);
  line.from = at;
  line.to = space;
  line.next = end + 1;
  line.rank = rank;
}

/** The `=` that end a line's base64 token. */
const padding = (file: Uint8Array, line: Line) =>
  (file[line.to - 1] === PAD ? 1 : 0) + (file[line.to - 2] === PAD ? 1 : 0);

/** The bytes a base64 text of `length` characters, `pads` of them `=`, decodes to. */
const decodedLength = (length: number, pads: number) => ((length * 3) >> 2) - pads;

/**
 * A tiktoken ranks file (`<base64 token> <rank>` per line, ranks rising; a rank the file skips is a
 * gap), read in two passes over its bytes into the table's arrays: Node decodes each token's
 * base64 in place (a short-lived string per token, no buffer), so the load leaves little behind.
 */
export function readTiktokenRanks(file: Buffer): RankTable {
  const line: Line = { from: 0, to: 0, next: 0, rank: 0 };
  let lastRank = -1;
  let total = 0;
  for (let at = 0; at < file.length; at = line.next) {
    readLine(file, at, line);
    if (line.rank <= lastRank) throw new Error(`tiktoken ranks: rank out of order at byte ${at}`);
    lastRank = line.rank;
    total += decodedLength(line.to - line.from, padding(file, line));
  }
  const bytes = Buffer.alloc(total);
  const starts = new Int32Array(lastRank + 2);
  let written = 0;
  let rank = 0;
  for (let at = 0; at < file.length; at = line.next) {
    readLine(file, at, line);
    while (rank < line.rank) starts[++rank] = written; // gaps: no bytes
    const base64 = file.toString('latin1', line.from, line.to);
    const decoded = bytes.write(base64, written, 'base64');
    // Node skips what is not base64: fewer bytes than the text's length promises.
    if (decoded !== decodedLength(base64.length, padding(file, line)))
      throw new Error(`tiktoken ranks: a token that is not base64 at byte ${at}`);
    written += decoded;
    starts[++rank] = written;
  }
  return RankTable.index(bytes, starts);
}

/** The o200k_base ranks, from the tiktoken file gpt-tokenizer ships. */
export function loadO200kRanks(): RankTable {
  return readTiktokenRanks(readFileSync(require.resolve('gpt-tokenizer/data/o200k_base.tiktoken')));
}
