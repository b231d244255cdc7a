/**
 * `node dist/test/bench/stream-count.measure.js [rounds, 3]`: a streamed answer's tokens counted
 * delta by delta, as the relay meters a stream past its ceiling's bytes. Ours (StreamTokenCounter:
 * each delta counted after the last two parts of the split before it) against the relay's counter
 * before it, rebuilt here on the same BpeCounter: each delta counted after the last 32–64
 * characters. In turns, in this process; per text and delta size: µs per delta, and how far the
 * deltas' sum is from counting the whole text at once (tokens, and per cent). Nothing is asserted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countText, StreamTokenCounter } from '@tollgate/relay/tokens/token-estimate';

const ROUNDS = Number(process.argv[2] ?? 3);
const ROOT = join(__dirname, '../../..');

/** The counter before: a fixed context of 32 characters, grown to 64 before it is cut back. */
class FixedContextCounter {
  private context = '';
  private contextTokens: number | undefined;

  add(piece: string): number {
    if (piece === '') return 0;
    const joined = this.context + piece;
    const tokens = countText(joined);
    const added = Math.max(0, tokens - (this.contextTokens ?? countText(this.context)));
    if (joined.length <= 64) {
      this.context = joined;
      this.contextTokens = tokens;
    } else {
      this.context = joined.slice(-32);
      this.contextTokens = undefined;
    }
    return added;
  }
}

type Counter = { add(piece: string): number };

function texts(): Record<string, string> {
  const read = (dir: string, ext: RegExp) =>
    readdirSync(join(ROOT, dir))
      .filter((f) => ext.test(f))
      .map((f) => readFileSync(join(ROOT, dir, f), 'utf8'))
      .join('\n')
      .slice(0, 60_000);
  return {
    'English prose (docs)': read('docs', /\.md$/),
    'TypeScript (the relay)': read('apps/gateway/src/relay', /\.ts$/),
    'Chinese prose': '今天的天气很好，我们去公园散步吧。明天也许会下雨，记得带伞。'.repeat(400),
  };
}

function run(make: () => Counter, text: string, size: number): { us: number; sum: number } {
  const counter = make();
  const started = process.hrtime.bigint();
  let sum = 0;
  for (let at = 0; at < text.length; at += size) sum += counter.add(text.slice(at, at + size));
  const us = Number(process.hrtime.bigint() - started) / 1000;
  return { us: us / Math.ceil(text.length / size), sum };
}

function main(): void {
  const rows: string[] = [];
  for (const [name, text] of Object.entries(texts())) {
    // The whole text counted in slices below TOKENIZE_LIMIT, cut before a space or after a full
    // stop, where the split pattern cuts too.
    const whole = text.split(/(?= )|(?<=。)/).reduce(
      (acc, word) => {
        if (acc.at(-1)!.length + word.length > 4000) acc.push('');
        acc[acc.length - 1] += word;
        return acc;
      },
      [''],
    );
    const exact = whole.reduce((sum, part) => sum + countText(part), 0);
    for (const size of [1, 4]) {
      const times: Record<'before' | 'ours', number[]> = { before: [], ours: [] };
      const sums: Record<'before' | 'ours', number> = { before: 0, ours: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        for (const [which, make] of [
          ['before', () => new FixedContextCounter()],
          ['ours', () => new StreamTokenCounter()],
        ] as const) {
          const { us, sum } = run(make, text, size);
          times[which].push(us);
          sums[which] = sum;
        }
      }
      const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
      const [a, b] = [median(times.before), median(times.ours)];
      const off = (sum: number) =>
        `${sum - exact >= 0 ? '+' : ''}${sum - exact} (${((100 * (sum - exact)) / exact).toFixed(1)} %)`;
      rows.push(
        `| ${name}, ${size}-character deltas | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b / a).toFixed(2)} | ${off(sums.before)} | ${off(sums.ours)} |`,
      );
    }
  }
  process.stdout.write(
    `| text (${ROUNDS} rounds, medians) | before, µs/delta | ours, µs/delta | ours / before | before: sum − whole | ours: sum − whole |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n`,
  );
}

main();
