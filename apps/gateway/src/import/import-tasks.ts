import {
  DomainError,
  taskDecider,
  taskStreamId,
  topUpOrderDecider,
  userDecider,
} from '@tollgate/domain';
import { crashPoint } from '../shared/crash-point';
import { translate } from '../shared/i18n/messages';
import { importTable } from './import-catalogue';
import { isSkipped, mapUserRow, type Mapped, type ReportItem } from './import-mapping';
import type { ImportReport, Print } from './import-report';
import type { ImportOutcome, ImportWriter } from './import-writer';
import { float } from './row-values';
import type { SourceDatabase } from './source-database';
import { mapMidjourneyRow, mapSunoTaskRow, type MappedTask, type TaskFacts } from './task-mapping';
import { DEFAULT_QUOTA_PER_UNIT, mapTopUpRow, type TopUpFacts } from './topup-mapping';

/** new-api's own tables this module imports, in their order (one-api has none of them). */
export const TASK_TABLES = ['midjourneys', 'tasks', 'top_ups'] as const;

type UserCheck = (userId: number) => Promise<string | null>;

/**
 * midjourneys, tasks (Suno) and top_ups of a new-api database, each table only when the source has
 * it: every row mapped and reported, written through `writer` (TaskImported on task-<key>,
 * TopUpOrderImported on topup-<trade no>), or only mapped when there is none (--dry-run). Rows of
 * users that are not imported are skipped. Runs after users (it reads which are imported).
 */
export async function importTasksAndTopUps(
  source: SourceDatabase,
  writer: ImportWriter | null,
  report: ImportReport,
  print: Print,
): Promise<void> {
  if (!TASK_TABLES.some((table) => source.hasTable(table))) return;
  const at = report.startedAt;
  const userMissing = writer ? importedUserCheck(writer) : await mappedUserCheck(source, at);
  const asTask = (mapped: Mapped<MappedTask>) =>
    isSkipped(mapped) ? mapped : { facts: mapped.task, items: mapped.items };
  const taskWrite = (facts: TaskFacts) =>
    ownerThen(userMissing, facts.userId, () => (writer ? importTask(writer, facts) : 'imported'));

  if (source.hasTable('midjourneys'))
    await importTable(
      'midjourneys',
      source.rows('midjourneys'),
      await source.count('midjourneys'),
      (row) => asTask(mapMidjourneyRow(row, at)),
      (facts) => facts.source.rowId,
      taskWrite,
      report,
      print,
    );
  if (source.hasTable('tasks'))
    await importTable(
      'tasks',
      source.rows('tasks'),
      await source.count('tasks'),
      (row) => asTask(mapSunoTaskRow(row, at)),
      (facts) => facts.source.rowId,
      taskWrite,
      report,
      print,
    );
  if (source.hasTable('top_ups')) {
    const quotaPerUnit = await sourceQuotaPerUnit(source);
    // A trade no two rows share names one order: the first row (in id order) is it.
    const tradeNos = new Map<string, number>();
    await importTable(
      'top_ups',
      source.rows('top_ups'),
      await source.count('top_ups'),
      (row) => {
        const mapped = mapTopUpRow(row, at, quotaPerUnit);
        if (isSkipped(mapped)) return mapped;
        const { tradeNo, source: from } = mapped.order;
        const first = tradeNos.get(tradeNo);
        if (first !== undefined) {
          const skipped: ReportItem = {
            table: 'top_ups',
            rowId: from.rowId,
            action: 'skipped',
            reason: `trade_no repeats row ${first}'s`,
          };
          return { skipped };
        }
        tradeNos.set(tradeNo, from.rowId);
        return { facts: mapped.order, items: mapped.items };
      },
      (facts) => facts.source.rowId,
      (facts) =>
        ownerThen(userMissing, facts.userId, () =>
          writer ? importTopUpOrder(writer, facts) : 'imported',
        ),
      report,
      print,
    );
  }
}

async function ownerThen(
  userMissing: UserCheck,
  userId: number,
  write: () => Promise<ImportOutcome> | ImportOutcome,
): Promise<ImportOutcome> {
  return (await userMissing(userId)) ?? write();
}

/** Writing: a user is imported when user-<id> holds an imported user (looked up once per id). */
function importedUserCheck(writer: ImportWriter): UserCheck {
  const known = new Map<number, boolean>();
  return async (userId) => {
    let imported = known.get(userId);
    if (imported === undefined) {
      const { state } = await writer.load(`user-${userId}`, userDecider);
      imported = state.exists && state.imported === true;
      known.set(userId, imported);
    }
    return imported ? null : `its user ${userId} is not imported`;
  };
}

/** --dry-run: the users rows that map (what a real run would import). */
async function mappedUserCheck(source: SourceDatabase, at: string): Promise<UserCheck> {
  const ids = new Set<number>();
  for await (const row of source.rows('users')) {
    const mapped = mapUserRow(source.project, row, at);
    if (!isSkipped(mapped)) ids.add(mapped.user.userId);
  }
  return (userId) => Promise.resolve(ids.has(userId) ? null : `its user ${userId} is not imported`);
}

/** The source's QuotaPerUnit option (what its orders were to credit), else new-api's default. */
async function sourceQuotaPerUnit(source: SourceDatabase): Promise<number> {
  const rows = await source.optionRows();
  const row = rows.find((r) => r['key'] === 'QuotaPerUnit');
  const value = row ? float(row['value']) : 0;
  return value > 0 ? value : DEFAULT_QUOTA_PER_UNIT;
}

const reasonOf = (error: unknown): string => {
  if (error instanceof DomainError) return translate(error.code, error.params, 'en');
  throw error;
};

/** TaskImported on task-<key>: 'imported', 'already' (an earlier run), or why not. */
export async function importTask(writer: ImportWriter, facts: TaskFacts): Promise<ImportOutcome> {
  const stream = taskStreamId(facts.taskId);
  const existing = await writer.load(stream, taskDecider);
  if (existing.state.exists)
    return existing.state.upstreamTaskId === facts.upstreamTaskId ? 'already' : 'task id taken';
  const appended = await writer.execute(
    stream,
    taskDecider,
    { type: 'ImportTask', task: facts },
    { table: facts.source.table, rowId: facts.source.rowId },
  );
  crashPoint('import:after-task');
  return appended ? 'imported' : 'already';
}

/**
 * TopUpOrderImported on topup-<trade no>: 'imported', 'already', or why not (a trade no a live
 * order of another user holds).
 */
export async function importTopUpOrder(
  writer: ImportWriter,
  facts: TopUpFacts,
): Promise<ImportOutcome> {
  const stream = `topup-${facts.tradeNo}`;
  const existing = await writer.load(stream, topUpOrderDecider);
  if (existing.state.exists)
    return existing.state.userId === facts.userId ? 'already' : 'trade_no taken by another order';
  try {
    const appended = await writer.execute(
      stream,
      topUpOrderDecider,
      { type: 'ImportTopUpOrder', order: facts },
      { table: 'top_ups', rowId: facts.source.rowId },
    );
    return appended ? 'imported' : 'already';
  } catch (error) {
    return reasonOf(error);
  }
}
