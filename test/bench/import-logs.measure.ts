/**
 * `node dist/test/bench/import-logs.measure.js [rows]` (after `npm run bench -- --quick` built it):
 * the log import's speed and memory (goal: one million rows at ≥ 20,000 rows/s, peak RSS ≤ 300 MiB).
 *
 * 1. A new-api SQLite database with `rows` log rows (default 1,000,000), built here.
 * 2. Baseline, in this process: the same rows read through the importer's source (keyset pages)
 *    and mapped, nothing written — the ceiling the source and the mapping allow.
 * 3. The real thing: `npm run import -- <file>` (its own process, with the script's heap bound) on
 *    an empty DATA_DIR; its rows/s over the whole run, start-up included, and its peak RSS (the
 *    report's `peakRssMiB`, from the import process's own resource usage).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { NEW_API_DDL } from '@tollgate/testing/import-fixtures';
import { mapLogRow } from '../../apps/gateway/src/import/log-mapping';
import { SourceDatabase } from '../../apps/gateway/src/import/source-database';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const GOAL_ROWS_PER_S = 20_000;
const GOAL_RSS_MIB = 300;
const ROOT = join(__dirname, '../../..');

function buildSource(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(NEW_API_DDL);
  db.prepare(
    "INSERT INTO users (id, username, password, role, status, quota, aff_code) VALUES (1, 'root', '', 100, 1, 0, 'r00t'), (2, 'alice', '', 1, 1, 0, 'al1c')",
  ).run();
  const insert = db.prepare(
    "INSERT INTO logs (id, user_id, created_at, type, content, username, token_name, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, token_id, `group`, other) VALUES (?, 2, ?, 2, '', 'alice', 'cli', ?, ?, ?, ?, 1, ?, 7, 1, 'default', ?)",
  );
  const other = JSON.stringify({
    model_ratio: 2.5,
    group_ratio: 1,
    admin_info: { use_channel: [7] },
  });
  const models = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet'];
  const many = db.transaction((from: number, to: number) => {
    for (let id = from; id < to; id++)
      insert.run(
        id,
        1_735_689_600 + id,
        models[id % 3],
        10 + (id % 97),
        id % 500,
        id % 300,
        id % 2,
        other,
      );
  });
  for (let from = 1; from <= ROWS; from += 100_000) many(from, Math.min(ROWS + 1, from + 100_000));
  db.close();
}

async function baseline(file: string): Promise<number> {
  const source = await SourceDatabase.open(file);
  const started = process.hrtime.bigint();
  let rows = 0;
  try {
    for await (const row of source.rows('logs')) {
      if (!('skipped' in mapLogRow('new-api', row))) rows += 1;
    }
  } finally {
    await source.close();
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return rows / seconds;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-import-bench-'));
  try {
    const file = join(dir, 'one-api.db');
    console.log(`building a new-api database with ${ROWS} log rows…`);
    buildSource(file);
    const readRate = await baseline(file);

    const dataDir = join(dir, 'data');
    const started = process.hrtime.bigint();
    // As users run it: `npm run import`, whose node flags bound the heap (package.json).
    const run = spawnSync('npm', ['run', '--silent', 'import', '--', file], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (run.status !== 0)
      throw new Error(`import failed (${run.status}): ${run.stdout}${run.stderr}`);
    const reportFile = readdirSync(dataDir).find((f) => f.startsWith('import-report-'))!;
    const report = JSON.parse(readFileSync(join(dataDir, reportFile), 'utf8')) as {
      tables: Record<string, { imported: number }>;
      peakRssMiB: number;
    };
    const imported = report.tables['logs']!.imported;
    if (imported !== ROWS) throw new Error(`imported ${imported} of ${ROWS} rows`);
    const rate = ROWS / seconds;
    console.log(`rows                       ${ROWS}`);
    console.log(`baseline read + map        ${Math.round(readRate)} rows/s`);
    console.log(
      `import (whole CLI run)     ${Math.round(rate)} rows/s in ${seconds.toFixed(1)} s (${(rate / readRate).toFixed(2)}× baseline; goal ≥ ${GOAL_ROWS_PER_S}: ${rate >= GOAL_ROWS_PER_S ? 'met' : 'NOT met'})`,
    );
    console.log(
      `peak RSS                   ${report.peakRssMiB} MiB (goal ≤ ${GOAL_RSS_MIB}: ${report.peakRssMiB <= GOAL_RSS_MIB ? 'met' : 'NOT met'})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
