/**
 * S6/S7's observer as its own process (started by the harness while the load runs): one probe
 * request at a time on the probe token, then how long until its receipt is in `events.sqlite`
 * (durable, S6) and until the `users` projection's checkpoint passed it (S7). It runs apart from the
 * load generator: in the harness's process, autocannon's ~2 000 requests a second held up the
 * probe's answer and its polling timers, and that wait was counted as the gateway's.
 *
 * argv: gateway url, probe key, probe token id, data dir, seconds. Prints one line of JSON
 * `{durable: ms[], lag: ms[], missing}` and exits.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStoredEventDecoder, type StoredColumns } from '@tollgate/event-store';
import { CHAT_BODY } from './bench-shared';

const POLL_MS = 0.5;

async function main(): Promise<void> {
  const [url, key, tokenIdText, dataDir, secondsText] = process.argv.slice(2);
  const tokenId = Number(tokenIdText);
  const end = Date.now() + Number(secondsText) * 1000;
  const events = new Database(join(dataDir!, 'events.sqlite'), {
    readonly: true,
    fileMustExist: true,
  });
  const reads = new Database(join(dataDir!, 'read.sqlite'), {
    readonly: true,
    fileMustExist: true,
  });
  const head = events.prepare('SELECT MAX(global_position) AS p FROM events');
  // Payloads are stored compressed: the probe's receipt is found by decoding the new ones.
  const receiptsAfter = events.prepare(
    `SELECT global_position AS p, event_id, data, metadata FROM events WHERE global_position > ? AND type = 'RequestRelayed' ORDER BY global_position`,
  );
  const decoder = openStoredEventDecoder(events);
  /** The position of the first probe receipt after `scanned.upTo`, which it moves past the others. */
  const findProbe = (scanned: { upTo: number }): number | undefined => {
    const rows = receiptsAfter.all(scanned.upTo) as Array<StoredColumns & { p: number }>;
    for (const row of rows) {
      const data = JSON.parse(decoder.texts(row).data) as { tokenId?: unknown };
      if (data.tokenId === tokenId) return row.p;
      scanned.upTo = row.p;
    }
    return undefined;
  };
  const checkpoint = reads.prepare(
    `SELECT json_extract(doc, '$.position') AS position FROM projection_checkpoints WHERE id = 'users'`,
  );
  const durable: number[] = [];
  const lag: number[] = [];
  let missing = 0;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  while (Date.now() < end) {
    const from = (head.get() as { p: number }).p;
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: CHAT_BODY,
    });
    await res.text();
    const answered = performance.now();
    let position = 0;
    const scanned = { upTo: from };
    while (performance.now() - answered < 2000) {
      const hit = findProbe(scanned);
      if (hit !== undefined) {
        position = hit;
        break;
      }
      await sleep(POLL_MS);
    }
    if (!position) {
      missing++;
      continue;
    }
    const durableAt = performance.now();
    durable.push(durableAt - answered);
    while (performance.now() - durableAt < 5000) {
      const cp = checkpoint.get() as { position: string } | undefined;
      if (cp && Number(cp.position.split('/')[0]) >= position) {
        lag.push(performance.now() - durableAt);
        break;
      }
      await sleep(POLL_MS);
    }
    await sleep(20);
  }
  events.close();
  reads.close();
  process.stdout.write(`${JSON.stringify({ durable, lag, missing })}\n`);
}

void main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
