import { Client, Pool } from 'undici';
import { STREAM_BODY, STREAM_CONTENT } from './bench-shared';

// autocannon ships no types; this is the slice the harness uses.
interface AutocannonResult {
  duration: number;
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
  requests: { average: number; total: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (
  options: Record<string, unknown>,
) => Promise<AutocannonResult>;

export interface Target {
  readonly url: string;
  readonly headers: Record<string, string>;
}

export interface LoadResult {
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly ok: number;
  readonly failed: number;
}

/** autocannon from inside the harness: a closed loop of `connections`, or a fixed overall rate. */
export async function load(
  target: Target,
  options: { body: string; connections: number; seconds: number; rate?: number; amount?: number },
): Promise<LoadResult> {
  const result = await autocannon({
    url: `${target.url}/v1/chat/completions`,
    method: 'POST',
    headers: { ...target.headers, 'content-type': 'application/json' },
    body: options.body,
    connections: options.connections,
    duration: options.seconds,
    timeout: 10,
    ...(options.rate ? { overallRate: options.rate } : {}),
    // A fixed number of requests, however long they take (autocannon then ignores the duration).
    ...(options.amount ? { amount: options.amount } : {}),
  });
  return {
    rps: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    ok: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

export interface LatencyResult {
  readonly n: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly failed: number;
}

/** S1's blocks: long enough for thousands of samples, short enough to spread a noisy spell. */
const LATENCY_BLOCK_MS = 1000;
/** Between blocks: what a target does after its last answer (a commit, a projection batch) ends first. */
const LATENCY_GAP_MS = 250;

/**
 * Concurrency 1 with microsecond resolution (autocannon's histogram counts whole milliseconds): one
 * keep-alive connection per target, one request after the other, `seconds` per target. With several
 * targets the time is cut into one-second blocks taken in turn (a, b, a, b, …), so a noisy spell on
 * the shared machine weighs on each alike. Not request by request: the targets share a CPU, and the
 * gateway's work after an answer would land in the baseline's measurement.
 */
export async function latencyLoop(
  targets: readonly Target[],
  body: string,
  seconds: number,
): Promise<LatencyResult[]> {
  const clients = targets.map((t) => new Client(t.url, { pipelining: 1 }));
  const samples: number[][] = targets.map(() => []);
  const failed = targets.map(() => 0);
  const headers = targets.map((t) => ({ ...t.headers, 'content-type': 'application/json' }));
  const blocks = Math.max(1, Math.round((seconds * 1000) / LATENCY_BLOCK_MS));
  try {
    for (let block = 0; block < blocks; block++) {
      for (let i = 0; i < targets.length; i++) {
        const end = Date.now() + LATENCY_BLOCK_MS;
        while (Date.now() < end) {
          const started = process.hrtime.bigint();
          const res = await clients[i]!.request({
            method: 'POST',
            path: '/v1/chat/completions',
            headers: headers[i],
            body,
          });
          await res.body.arrayBuffer();
          const us = Number(process.hrtime.bigint() - started) / 1000;
          if (res.statusCode === 200) samples[i]!.push(us);
          else failed[i]! += 1;
        }
        await new Promise((resolve) => setTimeout(resolve, LATENCY_GAP_MS));
      }
    }
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
  return samples.map((list, i) => {
    list.sort((a, b) => a - b);
    return { n: list.length, p50Us: pct(list, 0.5), p99Us: pct(list, 0.99), failed: failed[i]! };
  });
}

export interface StreamResult {
  readonly streams: number;
  readonly complete: number;
  /** Streams whose content differs from the upstream's (a chunk lost, doubled or out of order). */
  readonly damaged: number;
  readonly failed: number;
  readonly firstTokenP50Ms: number;
  readonly firstTokenP99Ms: number;
}

/** `n` SSE streams at once; checks every stream's text against the upstream's numbered chunks. */
export async function concurrentStreams(
  target: Target,
  n: number,
  onAllStarted?: () => void,
): Promise<StreamResult> {
  const pool = new Pool(target.url, { connections: n, pipelining: 1 });
  const headers = { ...target.headers, 'content-type': 'application/json' };
  const firstTokens: number[] = [];
  let complete = 0;
  let damaged = 0;
  let failed = 0;
  let started = 0;
  const one = async () => {
    const t0 = performance.now();
    try {
      const res = await pool.request({
        method: 'POST',
        path: '/v1/chat/completions',
        headers,
        body: STREAM_BODY,
      });
      if (++started === n) onAllStarted?.();
      if (res.statusCode !== 200) {
        await res.body.text();
        failed++;
        return;
      }
      let buffer = '';
      let text = '';
      let sawFirst = false;
      for await (const chunk of res.body) {
        buffer += (chunk as Buffer).toString();
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = event.startsWith('data: ') ? event.slice(6) : '';
          if (!data || data === '[DONE]') continue;
          const parsed = JSON.parse(data) as { choices?: Array<{ delta?: { content?: string } }> };
          const piece = parsed.choices?.[0]?.delta?.content ?? '';
          if (piece && !sawFirst) {
            sawFirst = true;
            firstTokens.push(performance.now() - t0);
          }
          text += piece;
        }
      }
      if (text === STREAM_CONTENT) complete++;
      else damaged++;
    } catch {
      failed++;
    }
  };
  try {
    await Promise.all(Array.from({ length: n }, one));
  } finally {
    await pool.close();
  }
  firstTokens.sort((a, b) => a - b);
  return {
    streams: n,
    complete,
    damaged,
    failed,
    firstTokenP50Ms: pct(firstTokens, 0.5),
    firstTokenP99Ms: pct(firstTokens, 0.99),
  };
}

export function pct(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
