/**
 * The mock upstream as its own process for the benchmarks (pinned by the harness): records nothing,
 * answers JSON chat at once, `gpt-3.5-turbo` after 20 ms (S3), `gpt-4o` as a 50-chunk stream with
 * numbered chunks (S4 checks order and loss). Prints `READY <url>` once listening.
 */
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { STREAM_CHUNKS, STREAM_CONTENT } from './bench-shared';

async function main(): Promise<void> {
  const upstream = await MockUpstream.start({ recordLimit: 0 });
  upstream.forModel('gpt-3.5-turbo', { latencyMs: 20 });
  upstream.forModel('gpt-4o', {
    chunks: STREAM_CHUNKS,
    content: STREAM_CONTENT,
    chunkIntervalMs: Number(process.env.CHUNK_INTERVAL_MS ?? 10),
  });
  process.stdout.write(`READY ${upstream.url}\n`);
  const stop = () => void upstream.close().finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
