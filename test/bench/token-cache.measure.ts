/**
 * `node --expose-gc dist/test/bench/token-cache.measure.js [made-up words]`: the tokenizer's cache
 * of merged pieces, at gpt-tokenizer's own size (100 000 entries) and at the relay's
 * (MERGE_CACHE_ENTRIES), in turn in this process (twice each): the heap it holds once prompts have
 * brought it many pieces that are not in the vocabulary (made-up words, 200 000 by default), and
 * the time a count takes on natural text (this repository's docs and relay code, the third pass
 * over it) before and after that. Nothing is asserted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Encoding from 'gpt-tokenizer/cjs/GptEncoding';
import { loadO200kRanks } from '@tollgate/relay/tokens/o200k-ranks';
import { MERGE_CACHE_ENTRIES } from '@tollgate/relay/tokens/token-estimate';
import { madeUpWords } from '@tollgate/relay/testing/made-up-words';

const WORDS = Number(process.argv[2] ?? 200_000);
const LIBRARY_DEFAULT = 100_000;
const ROOT = join(__dirname, '../../..');

function corpus(): string[] {
  const files = [
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(ROOT, 'docs', f)),
    ...readdirSync(join(ROOT, 'apps/gateway/src/relay'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(ROOT, 'apps/gateway/src/relay', f)),
  ];
  const chunks: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (let i = 0; i < text.length; i += 2000) chunks.push(text.slice(i, i + 2000));
  }
  return chunks;
}

/** The made-up words, 100 to a text. */
function madeUpText(words: number): string[] {
  const all = madeUpWords(words);
  const texts: string[] = [];
  for (let i = 0; i < all.length; i += 100) texts.push(all.slice(i, i + 100).join(''));
  return texts;
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heapMiB = () => process.memoryUsage().heapUsed / 1048576;

/** µs per KB of the third pass over `chunks`. */
function countRate(encoding: Encoding.GptEncoding, chunks: readonly string[]): number {
  const kb = chunks.reduce((sum, c) => sum + Buffer.byteLength(c), 0) / 1024;
  let us = 0;
  for (let pass = 0; pass < 3; pass++) {
    const started = process.hrtime.bigint();
    for (const chunk of chunks) encoding.countTokens(chunk);
    us = Number(process.hrtime.bigint() - started) / 1000;
  }
  return us / kb;
}

function main(): void {
  if (!(globalThis as { gc?: unknown }).gc) throw new Error('run with node --expose-gc');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the library's module, as the relay loads it
  const { GptEncoding } = require('gpt-tokenizer/cjs/GptEncoding') as typeof Encoding;
  const natural = corpus();
  const madeUp = madeUpText(WORDS);
  // Twice in turn: the first run also warms the JIT up.
  for (const size of [LIBRARY_DEFAULT, MERGE_CACHE_ENTRIES, LIBRARY_DEFAULT, MERGE_CACHE_ENTRIES]) {
    let encoding: Encoding.GptEncoding | undefined = GptEncoding.getEncodingApi(
      'o200k_base',
      loadO200kRanks,
    );
    encoding.setMergeCacheSize(size);
    gc();
    const before = heapMiB();
    const fresh = countRate(encoding, natural);
    for (const text of madeUp) encoding.countTokens(text);
    const churned = countRate(encoding, natural);
    gc();
    const held = heapMiB() - before;
    process.stdout.write(
      `cache of ${size} pieces: natural text ${fresh.toFixed(1)} µs/KB, ` +
        `${churned.toFixed(1)} µs/KB after ${WORDS} made-up words; ` +
        `heap held beyond the ranks ${held.toFixed(1)} MiB\n`,
    );
    encoding = undefined;
    gc();
  }
}

main();
