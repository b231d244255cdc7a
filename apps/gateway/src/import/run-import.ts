import { resolve } from 'node:path';
import { normalizeUsername } from '@tollgate/domain';
import type { AppConfig } from '../config/app-config';
import { openStores } from '../infrastructure/open-stores';
import { SecretBox } from '../infrastructure/secret-box';
import { assertOnlyThisSource, fingerprintOf } from './data-dir-check';
import { CATALOGUE_TABLES, importCatalogue } from './import-catalogue';
import { isSkipped, mapTokenRow, mapUserRow, type MappedUser } from './import-mapping';
import {
  countsOf,
  newReport,
  printProgress,
  printReport,
  writeReportFile,
  type ImportReport,
  type Print,
} from './import-report';
import { importLogs } from './import-logs';
import { sourceChannelScrubbers } from './log-key-scrubbers';
import { importTasksAndTopUps, TASK_TABLES } from './import-tasks';
import { ImportWriter } from './import-writer';
import { ImportRefused, SourceDatabase, sourceKind } from './source-database';

export type { ImportReport, TableCounts } from './import-report';

export interface ImportOptions {
  readonly dryRun: boolean;
  /** A separate logs database (one-api/new-api's LOG_SQL_DSN). */
  readonly logs?: string;
}

/** A SQLite path made absolute; a server URL as the engine prints it (password masked). */
const printable = (spec: string, source: SourceDatabase): string =>
  sourceKind(spec) === 'sqlite' ? resolve(spec) : source.location;

const TABLES = ['users', 'tokens', ...CATALOGUE_TABLES, ...TASK_TABLES, 'logs'] as const;

/**
 * `import <sqlite file> [--dry-run]`: users, tokens, channels, redemption codes and options of a
 * one-api / new-api database as events
 * (docs/import.md). Run with the gateway stopped (the DATA_DIR lock); every event id derives from
 * (project, table, row id, stream), so a second run, or one after a kill -9, appends only what is
 * missing.
 */
export async function runImport(
  config: AppConfig,
  sourcePath: string,
  options: ImportOptions,
  print: Print = (line) => console.log(line),
): Promise<ImportReport> {
  const { dryRun } = options;
  const source = await SourceDatabase.open(sourcePath);
  const logs = options.logs
    ? await SourceDatabase.openLogs(options.logs, source.project).catch(async (error: Error) => {
        await source.close();
        throw error;
      })
    : source;
  const report = newReport(printable(sourcePath, source), source.project, dryRun, TABLES);
  report.sourceVersion = source.version;
  if (logs !== source) report.logsSource = printable(options.logs!, logs);
  print(
    `Source: ${report.source} (${source.project}, ${source.version})${dryRun ? ', dry run: nothing is written' : ''}`,
  );
  if (report.logsSource) print(`Logs: ${report.logsSource}`);
  try {
    if (dryRun) {
      await mapAll(source, report, print);
      await importCatalogue(source, null, report, print);
      await importTasksAndTopUps(source, null, report, print);
      const keys = await sourceChannelScrubbers(source, report.startedAt);
      await importLogs(logs, source.project, null, report, print, keys);
    } else {
      const fingerprint = await fingerprintOf(source);
      const stores = await openStores(config).catch((error: Error) => {
        throw new ImportRefused(error.message);
      });
      try {
        await assertOnlyThisSource(stores.eventStore, fingerprint);
        const writer = new ImportWriter(
          stores.eventStore,
          new SecretBox(config.sessionSecret),
          source.project,
          fingerprint,
        );
        const users = await importUsers(source, writer, report, print);
        await importTokens(source, writer, users, report, print);
        await importCatalogue(source, writer, report, print);
        await importTasksAndTopUps(source, writer, report, print);
        const keys = await sourceChannelScrubbers(source, report.startedAt);
        await importLogs(logs, source.project, writer, report, print, keys);
      } finally {
        await stores.close();
      }
    }
  } finally {
    await source.close();
    if (logs !== source) await logs.close();
  }
  report.finishedAt = new Date().toISOString();
  report.peakRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  printReport(report, print);
  if (!dryRun) print(`Report: ${writeReportFile(report, config.dataDir)}`);
  return report;
}

/** --dry-run: every row mapped and reported, nothing opened in DATA_DIR. */
async function mapAll(source: SourceDatabase, report: ImportReport, print: Print): Promise<void> {
  for (const table of ['users', 'tokens'] as const) {
    const counts = countsOf(report, table);
    const started = Date.now();
    for await (const row of source.rows(table)) {
      counts.read += 1;
      const mapped =
        table === 'users'
          ? mapUserRow(source.project, row, report.startedAt)
          : mapTokenRow(source.project, row, report.startedAt);
      if (isSkipped(mapped)) {
        counts.skipped += 1;
        report.items.push(mapped.skipped);
      } else {
        counts.imported += 1;
        report.items.push(...mapped.items);
      }
    }
    printProgress(print, table, counts.read, counts.read, started);
  }
}

/** Returns the users imported (now or by an earlier run): the tokens that may refer to them. */
async function importUsers(
  source: SourceDatabase,
  writer: ImportWriter,
  report: ImportReport,
  print: Print,
): Promise<Set<number>> {
  const counts = countsOf(report, 'users');
  const total = await source.count('users');
  const started = Date.now();
  const imported = new Set<number>();
  const names = new Set<string>();
  let maxUser = 0;
  for await (const row of source.rows('users')) {
    counts.read += 1;
    const mapped = mapUserRow(source.project, row, report.startedAt);
    if (isSkipped(mapped)) {
      counts.skipped += 1;
      report.items.push(mapped.skipped);
      continue;
    }
    const username = uniqueUsername(mapped, names);
    maxUser = Math.max(maxUser, mapped.user.userId);
    const outcome = await writer.user({ ...mapped, user: { ...mapped.user, username } });
    report.items.push(...mapped.items);
    if (outcome === 'imported' || outcome === 'already') {
      counts[outcome] += 1;
      imported.add(mapped.user.userId);
    } else {
      counts.skipped += 1;
      report.items.push({
        table: 'users',
        rowId: mapped.user.userId,
        action: 'skipped',
        reason: outcome,
      });
    }
    if (counts.read % 1000 === 0) printProgress(print, 'users', counts.read, total, started);
  }
  printProgress(print, 'users', counts.read, total, started);
  await writer.advanceSequence('seq-user', maxUser);
  return imported;
}

async function importTokens(
  source: SourceDatabase,
  writer: ImportWriter,
  users: ReadonlySet<number>,
  report: ImportReport,
  print: Print,
): Promise<void> {
  const counts = countsOf(report, 'tokens');
  const total = await source.count('tokens');
  const started = Date.now();
  let maxToken = 0;
  for await (const row of source.rows('tokens')) {
    counts.read += 1;
    const mapped = mapTokenRow(source.project, row, report.startedAt);
    if (isSkipped(mapped)) {
      counts.skipped += 1;
      report.items.push(mapped.skipped);
      continue;
    }
    const { tokenId, userId } = mapped.token;
    maxToken = Math.max(maxToken, tokenId);
    if (!users.has(userId)) {
      counts.skipped += 1;
      report.items.push({
        table: 'tokens',
        rowId: tokenId,
        action: 'skipped',
        reason: `its user ${userId} is not imported`,
      });
      continue;
    }
    report.items.push(...mapped.items);
    const outcome = await writer.token(mapped.token);
    if (outcome === 'imported' || outcome === 'already') counts[outcome] += 1;
    else {
      counts.skipped += 1;
      report.items.push({ table: 'tokens', rowId: tokenId, action: 'skipped', reason: outcome });
    }
    if (counts.read % 1000 === 0) printProgress(print, 'tokens', counts.read, total, started);
  }
  printProgress(print, 'tokens', counts.read, total, started);
  await writer.advanceSequence('seq-token', maxToken);
}

/**
 * Names differing only in case (the source's UNIQUE is case-sensitive, ours is not): the first in
 * id order keeps it, a later one becomes `<name>_<id>`, reported.
 */
function uniqueUsername(mapped: MappedUser, taken: Set<string>): string {
  const { username, userId } = mapped.user;
  let name = username;
  if (taken.has(normalizeUsername(name))) {
    name = `${username}_${userId}`;
    mapped.items.push({
      table: 'users',
      rowId: userId,
      action: 'changed',
      field: 'username',
      reason: `another user has the same name in other case: imported as ${name}`,
    });
  }
  taken.add(normalizeUsername(name));
  return name;
}
