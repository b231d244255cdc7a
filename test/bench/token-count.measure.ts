/**
 * `node --expose-gc dist/test/bench/token-count.measure.js [rounds, 3]`: the relay's token counter
 * (BpeCounter over the RankTable) against gpt-tokenizer's o200k_base encoder as the relay used it
 * before (built from the same ranks, merge cache of 16 384 pieces), in turns in this process:
 * - the first count (loading the ranks) and the heap and array buffers each then holds, in a new
 *   process each time;
 * - natural text (this repository's docs and relay code): µs per KB, fresh and on the third pass;
 * - made-up words (every word merged): µs per KB;
 * - one unbroken piece of 8 000 random CJK, Latin or Cyrillic letters (a prompt any caller may
 *   send): ms per count, each piece new.
 * The ratios are ours / the library's. Every count is checked equal to the library's.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as Encoding from 'gpt-tokenizer/cjs/GptEncoding';
import type * as SplitPatterns from 'gpt-tokenizer/cjs/encodingParams/constants';
import { BpeCounter } from '@tollgate/relay/tokens/bpe-counter';
import { loadO200kRanks } from '@tollgate/relay/tokens/o200k-ranks';
import { madeUpWords } from '@tollgate/relay/testing/made-up-words';

const ROUNDS = Number(process.argv[2] ?? 3);
const ROOT = join(__dirname, '../../..');
/** The merge cache the relay gave the library before it counted with its own merge. */
const LIBRARY_CACHE = 16_384;
const PIECE_CHARS = 8000;
const SCRIPTS: Array<[string, number, number]> = [
  ['CJK', 0x4e00, 0xa000],
  ['Latin', 0x61, 0x7b],
  ['Cyrillic', 0x430, 0x450],
];

type Count = (text: string) => number;

function corpus(): string[] {
  const dirs = ['docs', 'apps/gateway/src/relay'];
  const chunks: string[] = [];
  for (const dir of dirs)
    for (const file of readdirSync(join(ROOT, dir)).filter((f) => /\.(md|ts)$/.test(f))) {
      const text = readFileSync(join(ROOT, dir, file), 'utf8');
      for (let i = 0; i < text.length; i += 2000) chunks.push(text.slice(i, i + 2000));
    }
  return chunks;
}

function madeUpText(): string[] {
  const words = madeUpWords(20_000);
  const texts: string[] = [];
  for (let i = 0; i < words.length; i += 100) texts.push(words.slice(i, i + 100).join(''));
  return texts;
}

let seed = 1;
function randomPiece(low: number, high: number): string {
  let text = '';
  for (let i = 0; i < PIECE_CHARS; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    text += String.fromCodePoint(low + ((seed >>> 8) % (high - low)));
  }
  return text;
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const mib = () => {
  const m = process.memoryUsage();
  return { heap: m.heapUsed / 1048576, buffers: m.arrayBuffers / 1048576 };
};
const nowUs = () => Number(process.hrtime.bigint()) / 1000;

/** µs per KB of each of three passes over `texts`. */
function rates(count: Count, texts: readonly string[]): number[] {
  const kb = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0) / 1024;
  return [0, 1, 2].map(() => {
    const started = nowUs();
    for (const text of texts) count(text);
    return (nowUs() - started) / kb;
  });
}

/** The ranks in gpt-tokenizer's shape: a token's text when its bytes are UTF-8, else its bytes. */
function libraryTokens(): Array<string | number[]> {
  const ranks = loadO200kRanks();
  return Array.from({ length: ranks.size }, (_, rank) => {
    const bytes = Buffer.from(ranks.tokenBytes(rank));
    const text = bytes.toString('utf8');
    return Buffer.from(text, 'utf8').equals(bytes) ? text : Array.from(bytes);
  });
}

function build(which: 'ours' | 'library'): Count {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded inside the measure
  const patterns = require('gpt-tokenizer/cjs/encodingParams/constants') as typeof SplitPatterns;
  if (which === 'ours') {
    const counter = new BpeCounter(loadO200kRanks(), patterns.O200K_TOKEN_SPLIT_REGEX);
    return (text) => counter.count(text);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the library, as before
  const { GptEncoding } = require('gpt-tokenizer/cjs/GptEncoding') as typeof Encoding;
  const encoding = GptEncoding.getEncodingApi('o200k_base', libraryTokens);
  encoding.setMergeCacheSize(LIBRARY_CACHE);
  return (text) => encoding.countTokens(text, { disallowedSpecial: new Set() });
}

/** In a fresh process: the first count's time and what the counter then holds, as JSON. */
async function loadAlone(which: 'ours' | 'library'): Promise<void> {
  gc();
  const before = mib();
  const started = nowUs();
  const count = build(which);
  count('hello');
  const ms = (nowUs() - started) / 1000;
  // Freed array buffers are released after the collection, on a later turn.
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const after = mib();
  process.stdout.write(
    JSON.stringify({ ms, heap: after.heap - before.heap, buffers: after.buffers - before.buffers }),
  );
  if (count('hello') !== 1) throw new Error('hello is one token');
}

function loadInChild(which: 'ours' | 'library') {
  const out = execFileSync(process.execPath, ['--expose-gc', __filename, '--load', which]);
  return JSON.parse(out.toString()) as { ms: number; heap: number; buffers: number };
}

async function main(): Promise<void> {
  if (!(globalThis as { gc?: unknown }).gc) throw new Error('run with node --expose-gc');
  const loadArg = process.argv.indexOf('--load');
  if (loadArg >= 0) return await loadAlone(process.argv[loadArg + 1] as 'ours' | 'library');
  const natural = corpus();
  const madeUp = madeUpText();
  const results: Record<string, Record<string, number[]>> = { ours: {}, library: {} };
  const add = (which: string, key: string, value: number) =>
    (results[which]![key] ??= []).push(value);
  for (let round = 0; round < ROUNDS; round++)
    for (const which of ['library', 'ours'] as const) {
      const alone = loadInChild(which);
      add(which, 'first count in a new process, ms', alone.ms);
      add(which, 'heap then held, MiB', alone.heap);
      add(which, 'array buffers then held, MiB', alone.buffers);
      add(which, 'both, MiB', alone.heap + alone.buffers);
      let count: Count | undefined = build(which);
      const [fresh, , third] = rates(count, natural);
      add(which, 'natural text, fresh, µs/KB', fresh!);
      add(which, 'natural text, third pass, µs/KB', third!);
      add(which, 'made-up words, µs/KB', rates(count, madeUp)[0]!);
      for (const [name, low, high] of SCRIPTS) {
        const piece = randomPiece(low, high);
        const pieceStarted = nowUs();
        count(piece);
        add(
          which,
          `one piece of ${PIECE_CHARS} ${name} letters, ms`,
          (nowUs() - pieceStarted) / 1000,
        );
      }
      count = undefined;
    }
  // Every count the same as the library's.
  const ours = build('ours');
  const library = build('library');
  const differ = [...natural, ...madeUp].filter((text) => ours(text) !== library(text)).length;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  process.stdout.write(
    `| measure (median of ${ROUNDS}) | library | ours | ours / library |\n|---|---|---|---|\n`,
  );
  for (const key of Object.keys(results.ours!)) {
    const [a, b] = [median(results.library![key]!), median(results.ours![key]!)];
    const ratio = Math.abs(a) < 0.1 ? '—' : (b / a).toFixed(2);
    process.stdout.write(`| ${key} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${ratio} |\n`);
  }
  process.stdout.write(`\ncounts that differ from the library's: ${differ}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
