/**
 * `node dist/test/bench/long-piece.measure.js <checkout A> <checkout B> [rounds] [seconds] [rate]`:
 * what one caller's prompts of one unbroken run of letters (8 000 random CJK characters, a new one
 * each time, so no cache helps) cost everyone else. Two builds in alternating rounds, each started
 * fresh and warm as `build-ab.measure.js` does (relay on CPU 0); during `seconds` (15) that caller
 * sends `rate` (4) such prompts a second while another measures plain chat calls one at a time
 * (S1's loop). Prints the plain calls' p50 and p99, and the long prompts' own median. Nothing is
 * asserted.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { latencyLoop, type Target } from './bench-load';
import { sleep, startMockUpstream } from './bench-processes';
import { CHAT_BODY, JSON_MODEL } from './bench-shared';
import { withWarmGateway } from './warm-gateway';

const [rootA, rootB] = process.argv.slice(2, 4);
const ROUNDS = Number(process.argv[4] ?? 2);
const SECONDS = Number(process.argv[5] ?? 15);
const RATE = Number(process.argv[6] ?? 4);
const PIECE_CHARS = 8000;
const CJK = [0x4e00, 0xa000];

let seed = 7;
function longPrompt(): string {
  let text = '';
  for (let i = 0; i < PIECE_CHARS; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    text += String.fromCodePoint(CJK[0]! + ((seed >>> 8) % (CJK[1]! - CJK[0]!)));
  }
  return JSON.stringify({
    model: JSON_MODEL,
    messages: [{ role: 'user', content: text }],
    max_tokens: 16,
  });
}

/** Sends long prompts at RATE a second until `stop()`; their latencies in ms. */
function longPrompts(target: Target) {
  let running = true;
  const times: number[] = [];
  const done = (async () => {
    while (running) {
      const body = longPrompt();
      const started = performance.now();
      const res = await fetch(`${target.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...target.headers, 'content-type': 'application/json' },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`a long prompt was answered ${res.status}`);
      const ms = performance.now() - started;
      times.push(ms);
      await sleep(Math.max(0, 1000 / RATE - ms));
    }
  })();
  return {
    async stop(): Promise<number[]> {
      running = false;
      await done;
      return times.sort((a, b) => a - b);
    },
  };
}

async function main(): Promise<void> {
  if (!rootA || !rootB) throw new Error('usage: long-piece.measure.js <checkout A> <checkout B>');
  spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  const upstream = await startMockUpstream();
  try {
    for (let round = 1; round <= ROUNDS; round++)
      for (const [name, root] of [
        ['A', rootA],
        ['B', rootB],
      ] as const) {
        const start = {
          name: `gateway ${root}`,
          script: join(root, 'dist/apps/gateway/src/main.js'),
          upstreamUrl: upstream.url,
        };
        await withWarmGateway(start, async ({ target }) => {
          const hostile = longPrompts(target);
          const [plain] = await latencyLoop([target], CHAT_BODY, SECONDS);
          const long = await hostile.stop();
          const median = long[long.length >> 1] ?? 0;
          process.stdout.write(
            `round ${round} ${name}: plain calls p50 ${Math.round(plain!.p50Us)} µs, p99 ${Math.round(plain!.p99Us)} µs (${plain!.n}); ` +
              `${long.length} long prompts, median ${median.toFixed(1)} ms\n`,
          );
        });
      }
  } finally {
    await upstream.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
