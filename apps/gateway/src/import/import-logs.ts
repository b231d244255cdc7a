import {
  IMPORTED_LOGS_STREAM,
  logImportDecider,
  type ImportLogs,
  type LogImported,
} from '@tollgate/domain';
import { crashPoint } from '../shared/crash-point';
import { countsOf, printProgress, type ImportReport, type Print } from './import-report';
import type { ImportWriter } from './import-writer';
import type { SecretScrubber } from '@tollgate/relay';
import { logChangeReason, mapLogRow, type LogChange } from './log-mapping';
import { ImportRefused, type SourceDatabase, type SourceProject } from './source-database';

/** Rows per page read from the source. */
const BATCH = 1000;
/** Rows per append (one transaction, one fsync), and how many appends may be in flight. */
const APPEND_BATCH = 2000;
const MAX_IN_FLIGHT = 3;
const PROGRESS_EVERY = 50_000;

/**
 * The source's `logs` (from the main database or the `--logs` one), streamed in id order a page at
 * a time onto the `imported-logs` stream, one LogImported per row. A run resumes after the last
 * imported source id (the stream's last event): a killed run loses nothing and repeats nothing.
 * With no writer (--dry-run) rows are only mapped and counted.
 */
export async function importLogs(
  logs: SourceDatabase,
  project: SourceProject,
  writer: ImportWriter | null,
  report: ImportReport,
  print: Print,
  /** The source channels' keys: masked in the error rows that quote them. */
  channelKeys: ReadonlyMap<number, SecretScrubber> = new Map(),
): Promise<void> {
  if (!logs.hasTable('logs')) return;
  await assertLogsOf(logs, project);
  const counts = countsOf(report, 'logs');
  const total = await logs.count('logs');
  let state = logImportDecider.initialState;
  let revision: number | null = null;
  const last = writer ? await writer.last(IMPORTED_LOGS_STREAM) : null;
  if (last) {
    state = logImportDecider.evolve(state, last as unknown as LogImported);
    revision = last.revision;
  }
  const changes = new Map<LogChange, number>();
  const started = Date.now();
  let readNow = 0;
  let batch: Array<ImportLogs['logs'][number]> = [];
  // Appends in flight while the next pages are read and mapped: the writer thread commits one
  // batch while this thread prepares the next (the revisions are known ahead, so the order holds).
  const inFlight: Array<Promise<void>> = [];
  const flush = async (): Promise<void> => {
    const events = logImportDecider.decide({ type: 'ImportLogs', logs: batch }, state, {
      now: new Date(),
    });
    if (writer && events.length > 0) {
      const expected = revision;
      revision = (revision ?? -1) + events.length;
      const appended = writer
        .appendDecided(
          IMPORTED_LOGS_STREAM,
          events.map((event) => ({
            event,
            origin: { table: 'logs', rowId: event.data.source.rowId },
          })),
          expected,
        )
        .then(() => crashPoint('import:after-log-batch'));
      // Awaited below; a failure must not surface first as an unhandled rejection.
      appended.catch(() => undefined);
      inFlight.push(appended);
      if (inFlight.length >= MAX_IN_FLIGHT) await inFlight.shift();
      else await nextTurn();
    }
    for (const event of events) state = logImportDecider.evolve(state, event);
    counts.imported += events.length;
    counts.already += batch.length - events.length;
    batch = [];
  };
  const from = state.lastSourceId > 0 ? state.lastSourceId : Number.MIN_SAFE_INTEGER;
  for await (const row of logs.rows('logs', BATCH, from)) {
    readNow += 1;
    const mapped = mapLogRow(project, row);
    if ('skipped' in mapped) {
      counts.skipped += 1;
      report.items.push({
        table: 'logs',
        rowId: mapped.rowId,
        action: 'skipped',
        reason: mapped.skipped,
      });
      continue;
    }
    for (const change of mapped.changes) changes.set(change, (changes.get(change) ?? 0) + 1);
    // Only error rows quote a provider; the others are the gateway's own texts.
    const keys = mapped.changes.includes('type-5')
      ? channelKeys.get(mapped.log.channelId)
      : undefined;
    batch.push({
      ...mapped.log,
      ...(keys ? { content: keys.text(mapped.log.content) } : {}),
      source: { project, table: 'logs', rowId: mapped.rowId, importedAt: report.startedAt },
    });
    if (batch.length >= APPEND_BATCH) await flush();
    // The pages are read synchronously and the loop runs on microtasks: let the event loop turn
    // once a page, so the store sends a queued append and hears its writer's reply meanwhile.
    if (readNow % BATCH === 0) await nextTurn();
    // On a resumed run the bar counts this run's rows against the whole table.
    if (readNow % PROGRESS_EVERY === 0) printProgress(print, 'logs', readNow, total, started);
  }
  if (batch.length > 0) await flush();
  await Promise.all(inFlight);
  // Rows at or below the resume point were imported by an earlier run.
  counts.read = total;
  counts.already += total - readNow;
  printProgress(print, 'logs', total, total, started);
  for (const [change, rows] of changes)
    report.items.push({
      table: 'logs',
      rowId: 0,
      action: 'changed',
      field: change === 'other-invalid' ? 'other' : 'type',
      reason: logChangeReason(change, rows, project),
    });
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The logs table must be the main source's project's: new-api's has `use_time`, one-api's
 * `elapsed_time` (a new-api database migrated from one-api keeps both).
 */
async function assertLogsOf(logs: SourceDatabase, project: SourceProject): Promise<void> {
  const column = project === 'new-api' ? 'use_time' : 'elapsed_time';
  if (!(await logs.columns('logs')).has(column))
    throw new ImportRefused(
      `the logs table of ${logs.location} is not ${project}'s (it has no ${column} column)`,
    );
}
