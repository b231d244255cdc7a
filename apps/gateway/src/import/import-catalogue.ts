import {
  channelDecider,
  DomainError,
  OPTIONS_STREAM,
  optionsDecider,
  redemptionDecider,
  type OptionsCommand,
} from '@tollgate/domain';
import { sha256Hex } from '../infrastructure/secret-box';
import { translate } from '../shared/i18n/messages';
import { mapChannelRow, type ChannelFacts } from './channel-mapping';
import { isSkipped, type Mapped, type ReportItem } from './import-mapping';
import { countsOf, printProgress, type ImportReport, type Print } from './import-report';
import type { ImportOutcome, ImportWriter } from './import-writer';
import { mapOptionRow, optionApplyOrder, type OptionFacts } from './option-mapping';
import { mapRedemptionRow, type RedemptionFacts } from './redemption-mapping';
import type { SourceDatabase } from './source-database';

/** The tables this module imports, in their order (after users and tokens; options last). */
export const CATALOGUE_TABLES = ['channels', 'redemptions', 'options'] as const;

/**
 * channels, redemptions, options: every row mapped and reported; written through `writer`, or only
 * mapped when there is none (--dry-run). New channel and code ids continue after the imported ones.
 */
export async function importCatalogue(
  source: SourceDatabase,
  writer: ImportWriter | null,
  report: ImportReport,
  print: Print,
): Promise<void> {
  const at = report.startedAt;
  // Rows with several keys: their further channels are written once every row is in (their ids
  // follow the highest source id).
  const splitRows: SplitChannelRow[] = [];
  const maxSourceChannel = await importTable(
    'channels',
    source.rows('channels'),
    await source.count('channels'),
    (row) => {
      const mapped = mapChannelRow(source.project, row, at);
      if (isSkipped(mapped)) return mapped;
      if (mapped.extraChannels.length > 0)
        splitRows.push({ rowId: mapped.channel.channelId, extra: mapped.extraChannels });
      return { facts: mapped.channel, items: mapped.items };
    },
    (facts) => facts.channelId,
    writer && ((facts) => importChannel(writer, facts)),
    report,
    print,
  );
  const maxChannel = await importExtraChannels(splitRows, maxSourceChannel, writer, report);
  const maxCode = await importTable(
    'redemptions',
    source.rows('redemptions'),
    await source.count('redemptions'),
    (row) => {
      const mapped = mapRedemptionRow(source.project, row, at);
      return isSkipped(mapped) ? mapped : { facts: mapped.redemption, items: mapped.items };
    },
    (facts) => facts.redemptionId,
    writer && ((facts) => importRedemption(writer, facts)),
    report,
    print,
  );
  // Options: mapped first, then applied in an order the option rules accept (optionApplyOrder).
  const rows = await source.optionRows();
  const mappedOptions = rows.map((row, i) => {
    const mapped = mapOptionRow(source.project, row, i + 1);
    return isSkipped(mapped) ? mapped : { facts: mapped.option, items: mapped.items };
  });
  const ordered = [
    ...mappedOptions.filter(isSkipped),
    ...mappedOptions
      .filter((m): m is { facts: OptionFacts; items: ReportItem[] } => !isSkipped(m))
      .sort((a, b) => optionApplyOrder(a.facts, b.facts)),
  ];
  await importTable(
    'options',
    ordered,
    rows.length,
    (mapped) => mapped,
    (facts) => facts.rowId,
    writer && ((facts) => importOption(writer, facts)),
    report,
    print,
  );
  if (writer) {
    await writer.advanceSequence('seq-channel', maxChannel);
    await writer.advanceSequence('seq-redemption', maxCode);
  }
}

type MappedRow<F> = Mapped<{ facts: F; items: ReportItem[] }>;

/** A source row whose key had several lines, and the channels of its further keys. */
interface SplitChannelRow {
  readonly rowId: number;
  readonly extra: readonly Omit<ChannelFacts, 'channelId'>[];
}

/**
 * The further channels of rows with several keys: ids `maxSourceId + 1`, `+ 2`, … in source order
 * (rows by id, keys by line), so a repeated or resumed run derives the same ids and event ids and
 * appends only what is missing. Counted with the channels; the row's report line names every id.
 * Returns the last id given (the channel sequence continues after it).
 */
export async function importExtraChannels(
  rows: readonly SplitChannelRow[],
  maxSourceId: number,
  writer: ImportWriter | null,
  report: ImportReport,
): Promise<number> {
  const counts = countsOf(report, 'channels');
  let next = maxSourceId;
  for (const row of rows) {
    const ids = [row.rowId];
    for (const facts of row.extra) {
      next += 1;
      ids.push(next);
      const outcome = writer
        ? await importChannel(writer, { ...facts, channelId: next })
        : 'imported';
      if (outcome === 'imported' || outcome === 'already') counts[outcome] += 1;
      else {
        counts.skipped += 1;
        report.items.push({
          table: 'channels',
          rowId: row.rowId,
          action: 'skipped',
          reason: `channel ${next}: ${outcome}`,
        });
      }
    }
    report.items.push({
      table: 'channels',
      rowId: row.rowId,
      action: 'changed',
      field: 'key',
      reason: `${ids.length} keys on separate lines: imported as channels ${ids.join(', ')}`,
    });
  }
  return next;
}

/** One table: map each row, count and report it, write it when there is a writer; the highest id. */
export async function importTable<R, F>(
  table: string,
  rows: Iterable<R> | AsyncIterable<R>,
  total: number,
  map: (row: R) => MappedRow<F>,
  idOf: (facts: F) => number,
  write: ((facts: F) => Promise<ImportOutcome>) | null,
  report: ImportReport,
  print: Print,
): Promise<number> {
  const counts = countsOf(report, table);
  const started = Date.now();
  let maxId = 0;
  for await (const row of rows) {
    counts.read += 1;
    const mapped = map(row);
    if (isSkipped(mapped)) {
      counts.skipped += 1;
      report.items.push(mapped.skipped);
      continue;
    }
    const rowId = idOf(mapped.facts);
    maxId = Math.max(maxId, rowId);
    report.items.push(...mapped.items);
    const outcome = write ? await write(mapped.facts) : 'imported';
    if (outcome === 'imported' || outcome === 'already') counts[outcome] += 1;
    else {
      counts.skipped += 1;
      report.items.push({ table, rowId, action: 'skipped', reason: outcome });
    }
    if (counts.read % 1000 === 0) printProgress(print, table, counts.read, total, started);
  }
  printProgress(print, table, counts.read, total, started);
  return maxId;
}

const reasonOf = (error: unknown): string => {
  if (error instanceof DomainError) return translate(error.code, error.params, 'en');
  throw error;
};

/**
 * ChannelImported on channel-<id>: 'imported', 'already' (an earlier run), or why not. The event id
 * derives from the source row and the stream (a row's further channels have streams of their own).
 */
export async function importChannel(
  writer: ImportWriter,
  facts: ChannelFacts,
): Promise<ImportOutcome> {
  const { key, ...rest } = facts;
  const stream = `channel-${facts.channelId}`;
  const existing = await writer.load(stream, channelDecider);
  if (existing.state.exists)
    return existing.state.channelId === facts.channelId ? 'already' : 'channel id taken';
  try {
    const appended = await writer.execute(
      stream,
      channelDecider,
      { type: 'ImportChannel', channel: { ...rest, key: writer.box.seal(key) } },
      { table: 'channels', rowId: facts.source.rowId },
    );
    return appended ? 'imported' : 'already';
  } catch (error) {
    return reasonOf(error);
  }
}

/**
 * RedemptionImported on redemption-<id>, the code sealed and hashed as Tollgate stores its own
 * (the redeem path looks it up by SHA-256): 'imported', 'already', or why not.
 */
export async function importRedemption(
  writer: ImportWriter,
  facts: RedemptionFacts,
): Promise<ImportOutcome> {
  const { key, ...rest } = facts;
  const stream = `redemption-${facts.redemptionId}`;
  const existing = await writer.load(stream, redemptionDecider);
  if (existing.state.exists)
    return existing.state.redemptionId === facts.redemptionId ? 'already' : 'code id taken';
  try {
    const appended = await writer.execute(
      stream,
      redemptionDecider,
      {
        type: 'ImportRedemption',
        redemption: { ...rest, sealedKey: writer.box.seal(key), keyHash: sha256Hex(key) },
      },
      { table: 'redemptions', rowId: facts.redemptionId },
    );
    return appended ? 'imported' : 'already';
  } catch (error) {
    return reasonOf(error);
  }
}

/**
 * One option through the option decider, as the console would set it (a secret sealed): 'imported';
 * 'already' when Tollgate holds that value (an earlier run, or the same default); or why not (the
 * decider's refusal, e.g. a sign-in switch whose client secret is missing).
 */
export async function importOption(
  writer: ImportWriter,
  facts: OptionFacts,
): Promise<ImportOutcome> {
  const command: OptionsCommand = facts.secret
    ? {
        type: 'ChangeSecretOption',
        key: facts.key,
        sealed: facts.value === '' ? null : writer.box.seal(facts.value),
      }
    : { type: 'ChangeOption', key: facts.key, value: facts.value };
  try {
    const appended = await writer.execute(OPTIONS_STREAM, optionsDecider, command, {
      table: 'options',
      rowId: facts.rowId,
    });
    return appended ? 'imported' : 'already';
  } catch (error) {
    if (error instanceof DomainError && error.code === 'option.unchanged') return 'already';
    return reasonOf(error);
  }
}
