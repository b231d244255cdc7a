import { NO_RANK, NOT_ASCII, type RankTable } from './o200k-ranks';

/** UTF-8 bytes per UTF-16 code unit, at most (a surrogate pair: 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;
/**
 * Merged pieces whose counts are kept (the map is emptied when full). Prompts repeat: a chat's
 * earlier turns come back with every request, and the same identifiers recur.
 */
export const MERGED_PIECES_KEPT = 8192;
/**
 * The kept pieces' characters, at most (the map is emptied when a piece would pass it): a bound on
 * their size, not only their number, or a caller sending runs of 8 000 letters would have their
 * keys hold up to MERGED_PIECES_KEPT × 16 KB. Long pieces are still kept: runs of spaces or dashes
 * in code and tables recur from one request to the next.
 */
export const MERGED_CHARS_KEPT = 256 * 1024;
/**
 * A heap entry is rank × POSITIONS + position: the lowest rank first, the leftmost on a tie. A
 * piece stays far below 2²⁴ bytes: the relay counts at most TOKENIZE_LIMIT characters at once.
 */
const POSITIONS = 2 ** 24;

/**
 * Counts the tokens of a text as tiktoken's byte-pair encoding does (`encode_ordinary`: the text
 * of a special token such as `<|endoftext|>` is ordinary text): the text is cut into pieces by the
 * encoding's split pattern; a piece whose bytes are a token is one token; the others start as
 * single bytes and repeatedly merge the adjacent pair of lowest rank (the leftmost of equals)
 * until no pair is a token.
 *
 * The merge keeps its pairs in a heap, so a piece of n bytes costs O(n log n): gpt-tokenizer
 * scans every pair for each merge (O(n²)), and one unbroken run of 8 000 CJK characters kept the
 * relay's loop busy 130–230 ms. A piece that is a token allocates nothing (its place in the text is
 * looked up, no substring, no match array); one that merges, its string and a kept count: its
 * bytes and the merge's state live in arrays reused from one count to the next, sized for the
 * longest piece seen (under 2 MiB for TOKENIZE_LIMIT characters).
 */
export class BpeCounter {
  /** Sticky: each piece is read where the last one ended, with `test` (no match array made). */
  private readonly split: RegExp;
  /**
   * Where the last two pieces of the last text counted begin, and their tokens: appending text
   * re-splits no piece before them (StreamTokenCounter counts from there).
   */
  tailStart = 0;
  tailTokens = 0;
  private readonly encoder = new TextEncoder();
  private bytes = new Uint8Array(0);
  /** For each boundary between parts: the next boundary, the one before, and its pair's rank. */
  private next = new Int32Array(0);
  private previous = new Int32Array(0);
  private pairRank = new Int32Array(0);
  private heap = new Float64Array(0);
  private heapSize = 0;
  private readonly merged = new Map<string, number>();
  /** The characters of the pieces in `merged`. */
  private mergedChars = 0;

  constructor(
    private readonly ranks: RankTable,
    splitPattern: RegExp,
  ) {
    this.split = new RegExp(splitPattern.source, 'uy');
  }

  count(text: string): number {
    const split = this.split;
    let tokens = 0;
    // The last part's start and tokens, and the one's before it (0, 0 while there is none).
    let lastStart = 0;
    let lastTokens = 0;
    let previousStart = 0;
    let previousTokens = 0;
    for (let start = 0; start < text.length;) {
      split.lastIndex = start;
      // The pattern leaves no character out and matches nothing empty; if it did, the character
      // would be skipped, as an unanchored split skips it.
      if (!split.test(text) || split.lastIndex === start) {
        start += 1;
        continue;
      }
      const end = split.lastIndex;
      const pieceTokens = this.pieceTokens(text, start, end);
      tokens += pieceTokens;
      previousStart = lastStart;
      previousTokens = lastTokens;
      lastStart = start;
      lastTokens = pieceTokens;
      start = end;
    }
    this.tailStart = previousStart;
    this.tailTokens = previousTokens + lastTokens;
    return tokens;
  }

  /** The tokens of `text[start, end)`, one piece of the split. */
  private pieceTokens(text: string, start: number, end: number): number {
    const ascii = this.ranks.rankOfAscii(text, start, end);
    if (ascii >= 0) return 1;
    const piece = text.slice(start, end);
    const known = this.merged.get(piece);
    if (known !== undefined) return known;
    if (this.bytes.length < piece.length * MAX_BYTES_PER_UNIT) this.grow(piece.length);
    const length = this.encoder.encodeInto(piece, this.bytes).written;
    if (ascii === NOT_ASCII && this.ranks.rankOf(this.bytes, 0, length) !== NO_RANK) return 1;
    const tokens = this.merge(length);
    if (
      this.merged.size >= MERGED_PIECES_KEPT ||
      this.mergedChars + piece.length > MERGED_CHARS_KEPT
    ) {
      this.merged.clear();
      this.mergedChars = 0;
    }
    this.merged.set(piece, tokens);
    this.mergedChars += piece.length;
    return tokens;
  }

  private grow(units: number): void {
    const bytes = Math.max(64, units * MAX_BYTES_PER_UNIT * 2);
    this.bytes = new Uint8Array(bytes);
    this.next = new Int32Array(bytes + 1);
    this.previous = new Int32Array(bytes + 1);
    this.pairRank = new Int32Array(bytes + 1);
    // Each merge pushes at most two pairs, and stale entries stay until popped.
    this.heap = new Float64Array(bytes * 3);
  }

  /** The parts left once `bytes[0, length)` has merged all it can. */
  private merge(length: number): number {
    const { bytes, next, previous, pairRank, ranks } = this;
    this.heapSize = 0;
    for (let at = 0; at < length; at++) {
      next[at] = at + 1;
      previous[at] = at - 1;
      const rank = at + 2 <= length ? ranks.rankOf(bytes, at, at + 2) : NO_RANK;
      pairRank[at] = rank;
      if (rank !== NO_RANK) this.push(rank * POSITIONS + at);
    }
    let parts = length;
    while (this.heapSize > 0) {
      const entry = this.pop();
      const rank = Math.floor(entry / POSITIONS);
      const at = entry - rank * POSITIONS;
      // A pair that has grown since has another rank: this entry is stale.
      if (pairRank[at] !== rank) continue;
      const removed = next[at]!;
      const end = next[removed]!;
      next[at] = end;
      if (end < length) previous[end] = at;
      pairRank[removed] = NO_RANK;
      parts -= 1;
      this.rerank(at, end < length ? next[end]! : length, end < length);
      const before = previous[at]!;
      if (before >= 0) this.rerank(before, end, true);
    }
    return parts;
  }

  /** The pair starting at `at` now ends at `end` (none when `exists` is false). */
  private rerank(at: number, end: number, exists: boolean): void {
    const rank = exists ? this.ranks.rankOf(this.bytes, at, end) : NO_RANK;
    this.pairRank[at] = rank;
    if (rank !== NO_RANK) this.push(rank * POSITIONS + at);
  }

  private push(entry: number): void {
    const heap = this.heap;
    let at = this.heapSize++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (heap[parent]! <= entry) break;
      heap[at] = heap[parent]!;
      at = parent;
    }
    heap[at] = entry;
  }

  private pop(): number {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap[--this.heapSize]!;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.heapSize) break;
      if (child + 1 < this.heapSize && heap[child + 1]! < heap[child]!) child += 1;
      if (heap[child]! >= last) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = last;
    return top;
  }
}
