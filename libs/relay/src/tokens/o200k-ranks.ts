import { readFileSync } from 'node:fs';

/** One rank's token: its text when its bytes are UTF-8, else the bytes (gpt-tokenizer's shape). */
export type RankedToken = string | number[];

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function tokenOf(bytes: Buffer): RankedToken {
  try {
    const text = strictUtf8.decode(bytes);
    // A byte sequence that does not come back from its text is kept as bytes.
    if (Buffer.from(text, 'utf8').equals(bytes)) return text;
  } catch {
    // not UTF-8
  }
  return Array.from(bytes);
}

/**
 * The o200k_base ranks, read from the tiktoken file gpt-tokenizer ships (`<base64 token> <rank>`
 * per line) into the array its generated module holds: index = rank, a gap left as ''. Reading the
 * data leaves the heap the same; requiring that 2.2 MB module of array literals made V8's parser
 * allocate ~25 MiB through malloc, which the process's main arena kept for good
 * (docs/performance.md, "The tokenizer's ranks read from their data file").
 */
export function loadO200kRanks(): RankedToken[] {
  const text = readFileSync(require.resolve('gpt-tokenizer/data/o200k_base.tiktoken'), 'latin1');
  const ranks: RankedToken[] = [];
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const space = text.indexOf(' ', start);
    if (space < 0 || space > end) throw new Error(`o200k_base: a line without a rank at ${start}`);
    const rank = Number(text.slice(space + 1, end));
    if (!Number.isInteger(rank) || rank < ranks.length)
      throw new Error(`o200k_base: rank out of order at ${start}`);
    while (ranks.length < rank) ranks.push('');
    ranks.push(tokenOf(Buffer.from(text.slice(start, space), 'base64')));
    start = end + 1;
  }
  return ranks;
}
