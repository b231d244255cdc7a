import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatProgressBar } from '@tollgate/read-store';
import type { ReportItem } from './import-mapping';
import type { SourceProject } from './source-database';

export interface TableCounts {
  read: number;
  imported: number;
  /** Taken over by an earlier run of the same source (a resumed or repeated import). */
  already: number;
  skipped: number;
}

export interface ImportReport {
  source: string;
  /** The separate logs database, when there is one. */
  logsSource?: string;
  project: SourceProject;
  /** The source's version as its schema records it (new-api's setups row, else telling columns). */
  sourceVersion?: string;
  dryRun: boolean;
  startedAt: string;
  finishedAt: string;
  tables: Record<string, TableCounts>;
  items: ReportItem[];
  reportFile?: string;
  /** The import process's peak resident memory. */
  peakRssMiB?: number;
}

export type Print = (line: string) => void;

export function newReport(
  source: string,
  project: SourceProject,
  dryRun: boolean,
  tables: readonly string[],
): ImportReport {
  const startedAt = new Date().toISOString();
  return {
    source,
    project,
    dryRun,
    startedAt,
    finishedAt: startedAt,
    tables: Object.fromEntries(
      tables.map((t) => [t, { read: 0, imported: 0, already: 0, skipped: 0 }]),
    ),
    items: [],
  };
}

/** The counts of a table, created on first use (an import module may add its own tables). */
export function countsOf(report: ImportReport, table: string): TableCounts {
  return (report.tables[table] ??= { read: 0, imported: 0, already: 0, skipped: 0 });
}

/** `users [###.........]  10% 1000/10000 rows, 812 rows/s` */
export function printProgress(
  print: Print,
  table: string,
  done: number,
  total: number,
  started: number,
): void {
  const seconds = Math.max(0.001, (Date.now() - started) / 1000);
  print(`${table} ${formatProgressBar(done, total)} rows, ${Math.round(done / seconds)} rows/s`);
}

/** Every changed / dropped / skipped item, then one line of counts per table. */
export function printReport(report: ImportReport, print: Print): void {
  for (const item of report.items)
    print(
      `  ${item.table} #${item.rowId} ${item.action}${item.field ? ` ${item.field}` : ''}: ${item.reason}`,
    );
  for (const [table, c] of Object.entries(report.tables))
    print(
      `${table}: read ${c.read}, imported ${c.imported}, already imported ${c.already}, skipped ${c.skipped}`,
    );
}

/** The whole report as DATA_DIR/import-report-<started at>.json; returns its path. */
export function writeReportFile(report: ImportReport, dataDir: string): string {
  const file = join(dataDir, `import-report-${report.startedAt.replace(/[:.]/g, '-')}.json`);
  report.reportFile = file;
  writeFileSync(file, JSON.stringify(report, null, 2));
  return file;
}
