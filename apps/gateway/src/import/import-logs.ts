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
/**
 * Rows decided together, and how many such batches may be in flight. The writer sends a batch in
 * appends capped by size and count (ImportAppends), one at a time, in order.
 */
const APPEND_BATCH = 2000;
const MAX_IN_FLIGHT = 3;
const PROGRESS_EVERY = 50_000;

type ImportedLog = ImportLogs['logs'][number];

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
  const batches = await LogBatches.resume(writer, counts);
  const changes = new Map<LogChange, number>();
  const started = Date.now();
  let readNow = 0;
  for await (const row of logs.rows('logs', BATCH, batches.resumeAfter())) {
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
    await batches.add(importedLog(mapped, project, report.startedAt, channelKeys));
    // The pages are read synchronously and the loop runs on microtasks: let the event loop turn
    // once a page, so the store sends a queued append and hears its writer's reply meanwhile.
    if (readNow % BATCH === 0) await nextTurn();
    // On a resumed run the bar counts this run's rows against the whole table.
    if (readNow % PROGRESS_EVERY === 0) printProgress(print, 'logs', readNow, total, started);
  }
  await batches.finish();
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

/** A mapped row as the ImportLogs command takes it, a key quoted in an error row masked. */
function importedLog(
  mapped: Exclude<ReturnType<typeof mapLogRow>, { skipped: unknown }>,
  project: SourceProject,
  importedAt: string,
  channelKeys: ReadonlyMap<number, SecretScrubber>,
): ImportedLog {
  // Only error rows quote a provider; the others are the gateway's own texts.
  const keys = mapped.changes.includes('type-5')
    ? channelKeys.get(mapped.log.channelId)
    : undefined;
  return {
    ...mapped.log,
    ...(keys ? { content: keys.text(mapped.log.content) } : {}),
    source: { project, table: 'logs', rowId: mapped.rowId, importedAt },
  };
}

/**
 * The rows on their way to the `imported-logs` stream, APPEND_BATCH a batch. Batches stay in
 * flight while the next pages are read and mapped: the store commits one batch while this thread
 * prepares the next (the revisions are known ahead; the writer sends them in the order given).
 */
class LogBatches {
  private batch: ImportedLog[] = [];
  private readonly inFlight: Array<Promise<void>> = [];

  private constructor(
    private readonly writer: ImportWriter | null,
    private readonly counts: ReturnType<typeof countsOf>,
    private state: ReturnType<typeof logImportDecider.evolve>,
    private revision: number | null,
  ) {}

  /** Batches that go on after the stream's last event (an earlier run's). */
  static async resume(
    writer: ImportWriter | null,
    counts: ReturnType<typeof countsOf>,
  ): Promise<LogBatches> {
    const last = writer ? await writer.last(IMPORTED_LOGS_STREAM) : null;
    if (!last) return new LogBatches(writer, counts, logImportDecider.initialState, null);
    const state = logImportDecider.evolve(
      logImportDecider.initialState,
      last as unknown as LogImported,
    );
    return new LogBatches(writer, counts, state, last.revision);
  }

  /** The source id to read after: the last one imported. */
  resumeAfter(): number {
    return this.state.lastSourceId > 0 ? this.state.lastSourceId : Number.MIN_SAFE_INTEGER;
  }

  async add(log: ImportedLog): Promise<void> {
    this.batch.push(log);
    if (this.batch.length >= APPEND_BATCH) await this.flush();
  }

  /** The last batch appended and every append settled. */
  async finish(): Promise<void> {
    if (this.batch.length > 0) await this.flush();
    await Promise.all(this.inFlight);
  }

  private async flush(): Promise<void> {
    const events = logImportDecider.decide({ type: 'ImportLogs', logs: this.batch }, this.state, {
      now: new Date(),
    });
    if (this.writer && events.length > 0) await this.append(this.writer, events);
    for (const event of events) this.state = logImportDecider.evolve(this.state, event);
    this.counts.imported += events.length;
    this.counts.already += this.batch.length - events.length;
    this.batch = [];
  }

  /** Starts the append; waits only when MAX_IN_FLIGHT are under way. */
  private async append(writer: ImportWriter, events: readonly LogImported[]): Promise<void> {
    const expected = this.revision;
    this.revision = (this.revision ?? -1) + events.length;
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
    this.inFlight.push(appended);
    if (this.inFlight.length >= MAX_IN_FLIGHT) await this.inFlight.shift();
    else await nextTurn();
  }
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
