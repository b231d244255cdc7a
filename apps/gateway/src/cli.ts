import { join } from 'node:path';
import { serializePosition } from '@tollgate/event-store';
import { formatProgressBar, rebuildProjections } from '@tollgate/read-store';
import { loadConfig } from './config/app-config';
import { openLeases } from './infrastructure/election/open-leases';
import { takeProjectorLease } from './infrastructure/election/rebuild-lease';
import { openStores } from './infrastructure/open-stores';
import {
  planRebuild,
  restoreForRebuild,
  type RebuildStart,
} from './infrastructure/rebuild-from-checkpoint';
import { threadRebuildLane } from './rebuild-lane';
import { setOptionOffline } from './options/set-option-offline';
import { ALL_PROJECTIONS, serverProjections } from './projection-registry';
import { BalanceBook } from './billing/balance-book';
import { verifyLedger } from './history/verify-ledger';
import { verifyArchive } from './history/verify-archive';
import { compactOffline, parseDaysArgument } from './retention/compact-offline';
import { ARCHIVE_FOLDER } from './retention/archive-segment';
import { runImport } from './import/run-import';
import { ImportRefused } from './import/source-database';
import { registerServerMessages } from './server-messages';

/**
 * `node dist/apps/gateway/src/cli.js projections:rebuild [--from-scratch]`. With an embedded store it
 * holds DATA_DIR alone (the gateways stopped) and starts from the newest read-model checkpoint
 * (docs/operations.md); on a shared read store (READ_STORE_URL) it holds the projector lease
 * instead, refuses while a live projector holds it, and rebuilds from scratch.
 */
async function rebuild(): Promise<void> {
  const args = process.argv.slice(3);
  const fromScratch = args.includes('--from-scratch');
  if (args.some((a) => a !== '--from-scratch')) {
    console.error('Usage: cli projections:rebuild [--from-scratch]');
    process.exit(2);
  }
  const config = loadConfig();
  let start: RebuildStart = { checkpoint: null, why: 'not restored' };
  const stores = await openStores(config, {
    beforeReadStore: async (events) => {
      const head = await events.headPosition();
      start = await restoreForRebuild(config, fromScratch, (line) => console.log(line), head);
    },
  });
  const { eventStore } = stores;
  let readStore = stores.readStore;
  const leases = config.readStoreUrl ? await openLeases(config, eventStore) : null;
  let lease: { release(): Promise<void> } | undefined;
  try {
    if (leases) {
      const taken = await takeProjectorLease(leases.port, readStore, (error) =>
        console.error(`projector lease: ${error.message}`),
      );
      lease = taken;
      readStore = taken.store;
    }
    const started = Date.now();
    const projections = serverProjections(config);
    const plan = planRebuild(
      start,
      projections,
      await eventStore.headPosition(),
      !config.eventStoreUrl,
    );
    console.log(plan.line);
    const result = await rebuildProjections(eventStore, readStore, projections, {
      resume: plan.resume,
      onProgress: (done, total) =>
        process.stdout.write(`\rRebuilding read models ${formatProgressBar(done, total)}`),
      onBuildingIndexes: () => process.stdout.write('\nBuilding indexes…'),
      // Its rows are copied in SQL: with the embedded read store only.
      ...(config.readStoreUrl
        ? {}
        : { lane: threadRebuildLane(config.dataDir, config.sessionSecret) }),
    });
    process.stdout.write('\n');
    const perProjection = Object.entries(result.applied)
      .map(([name, n]) => `${name}: ${n}`)
      .join(', ');
    const lanes =
      result.inLane.length > 0 ? `; on a second thread: ${result.inLane.join(', ')}` : '';
    console.log(
      `Rebuilt from ${result.events} events in ${Date.now() - started} ms (${perProjection}${lanes})`,
    );
  } finally {
    await lease?.release();
    await leases?.close();
    await stores.close();
  }
}

/** `cli.js check-engines`: do the configured stores answer? The same fail-fast connect as start-up. */
async function checkEngines(): Promise<void> {
  const config = loadConfig();
  const stores = await openStores(config);
  const { eventStore, readStore } = stores;
  const head = await eventStore.headPosition();
  console.log(
    `Event store (${config.eventStoreUrl ? 'EventStoreDB' : 'SQLite'}) answers; head ${head ? serializePosition(head) : 'empty'}. ` +
      `Read store (${config.readStoreUrl ? 'MongoDB' : 'SQLite'}) answers; atomic transactions: ${readStore.atomicTransactions}.`,
  );
  await stores.close();
}

/**
 * `cli.js option:set <key> <value>`: lock-out recovery (e.g. PasswordLoginEnabled true after every
 * sign-in method was turned off). Run with the gateway stopped; the change is an OptionChanged event
 * by the system actor, validated like the API's.
 */
async function optionSet(): Promise<void> {
  const [key, value] = process.argv.slice(3);
  if (key === undefined || value === undefined) {
    console.error('Usage: cli option:set <key> <value>');
    process.exit(2);
  }
  await setOptionOffline(loadConfig(), key, value);
  console.log(`Option ${key} set; the gateway applies it at its next start.`);
}

/**
 * `cli.js ledger:verify`: every user's and token's balance in the read models and in the balance
 * book (replayed from the log, as a start-up does) against the sum of its events; every channel's
 * used quota against its usage. Takes the DATA_DIR lock, so with SQLite it runs while the gateway
 * is stopped (beside a running gateway, root's GET /api/ledger/verify checks the live book).
 * `--archive` also checks the archive chain and its segments (docs/retention.md).
 * Exit code 1 on a mismatch.
 */
async function ledgerVerify(): Promise<void> {
  const config = loadConfig();
  const stores = await openStores(config);
  try {
    // Reads only: the indexes are the projector's to reconcile.
    await stores.readStore.declare(
      ALL_PROJECTIONS.flatMap((p) => p.collections),
      {
        reconcileIndexes: false,
      },
    );
    const book = new BalanceBook();
    const types = new Set<string>(book.eventTypes);
    const report = await verifyLedger(stores.eventStore, stores.readStore, {
      book,
      onEvents: (events) => book.apply(events.filter((e) => types.has(e.type))),
      onProgress: (done, total) =>
        process.stdout.write(`\rVerifying the ledger ${formatProgressBar(done, total)}`),
    });
    process.stdout.write('\n');
    const { users, tokens, channels } = report.checked;
    console.log(
      `Scanned ${report.events} events in ${report.duration_ms} ms; checked ${users} users, ${tokens} tokens, ${channels} channels.`,
    );
    for (const m of report.mismatches)
      console.log(
        `MISMATCH ${m.kind} ${m.id} (${m.name}) ${m.field} in the ${m.source.replace('_', ' ')}: ${String(m.actual)}, the events sum to ${m.expected} (${m.events} events on ${m.streams.join(', ')})`,
      );
    console.log(
      report.ok ? 'Ledger OK' : `Ledger MISMATCH: ${report.mismatches.length} difference(s)`,
    );
    if (!report.ok) process.exitCode = 1;
    if (process.argv.includes('--archive')) await checkArchive(config, stores.eventStore);
  } finally {
    await stores.close();
  }
}

async function checkArchive(
  config: ReturnType<typeof loadConfig>,
  eventStore: Parameters<typeof verifyArchive>[0],
): Promise<void> {
  const report = await verifyArchive(eventStore, join(config.dataDir, ARCHIVE_FOLDER));
  for (const f of report.failures)
    console.log(
      `ARCHIVE ${f.problem} at chain revision ${f.link} (${f.source}, ${f.segment}): ${f.detail}`,
    );
  console.log(
    report.ok
      ? `Archive OK: ${report.segments} segment(s)`
      : `Archive BROKEN: ${report.failures.length} problem(s) in ${report.segments} segment(s)`,
  );
  if (!report.ok) process.exitCode = 1;
}

/**
 * `cli.js usage:compact [--days N]`: one retention pass offline (docs/retention.md), the gateway
 * stopped; prints each usage stream compacted.
 */
async function usageCompact(): Promise<void> {
  const days = parseDaysArgument(process.argv.slice(3));
  const result = await compactOffline(loadConfig(), days);
  if (result.days === 0) console.log('ReceiptRetentionDays is 0 (keep all): nothing compacted.');
  for (const s of result.compacted)
    console.log(
      `${s.source}: ${s.receipts} receipts, quota ${s.quota}${s.summarized ? ', summarized' : ''}${s.archived ? `, archived as ${s.segment}` : ''}, removed`,
    );
  if (result.days > 0)
    console.log(
      `Compacted ${result.compacted.length} usage stream(s) older than ${result.days} day(s).`,
    );
}

/**
 * `cli.js import <source> [--logs <source>] [--dry-run]`: a one-api / new-api database (a SQLite
 * file, `mysql://…` or `postgres://…`) as events (docs/import.md), with the gateway stopped. Exit
 * code 2 when refused (not such a database, DATA_DIR in use or holding other data).
 */
async function importCommand(): Promise<void> {
  const args = process.argv.slice(3);
  const dryRun = args.includes('--dry-run');
  const rest = args.filter((a) => a !== '--dry-run');
  const at = rest.indexOf('--logs');
  const logs = at >= 0 ? rest.splice(at, 2)[1] : undefined;
  const [source, ...extra] = rest;
  if (source === undefined || extra.length > 0 || (at >= 0 && logs === undefined)) {
    console.error(
      'Usage: cli import <sqlite file | mysql://… | postgres://…> [--logs <source>] [--dry-run]',
    );
    process.exit(2);
  }
  try {
    await runImport(loadConfig(), source, { dryRun, ...(logs === undefined ? {} : { logs }) });
  } catch (error) {
    if (!(error instanceof ImportRefused)) throw error;
    console.error(`Import refused: ${error.message}`);
    process.exit(2);
  }
}

const commands: Record<string, () => Promise<void>> = {
  import: importCommand,
  'projections:rebuild': rebuild,
  'check-engines': checkEngines,
  'option:set': optionSet,
  'ledger:verify': ledgerVerify,
  'usage:compact': usageCompact,
};

registerServerMessages(); // the import reports and option checks speak in the features' texts
const name = process.argv[2] ?? '';
const command = commands[name];
if (!command) {
  console.error(`Usage: cli <${Object.keys(commands).join('|')}>`);
  process.exit(2);
}
command().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
