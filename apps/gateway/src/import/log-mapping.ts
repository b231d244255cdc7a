import { LogType } from '@tollgate/contracts';
import type { ImportedLog } from '@tollgate/domain';
import { bool, int, rowIdOf, text } from './row-values';
import type { SourceProject } from './source-database';

/** What a log row changed on the way in, counted per kind (a million rows: no line per row). */
export type LogChange = 'type-5' | 'type-unknown' | 'other-invalid';

/** one-api's channel-test rows, new-api's error rows: no Tollgate log type. */
const SOURCE_ERROR_TYPE = 5;

export type MappedLog =
  | { readonly rowId: number; readonly log: ImportedLog; readonly changes: readonly LogChange[] }
  | { readonly skipped: string; readonly rowId: number };

/**
 * A one-api / new-api `logs` row as it was. Types 0–4 mean the same in both; 5 (one-api's channel
 * test, new-api's error) has no Tollgate counterpart and comes in as 0 (unknown). one-api's
 * `elapsed_time` (ms) becomes `use_time` (s); new-api's `other` JSON is kept as text when it
 * parses. The row keeps its user, token and channel ids even when those were deleted.
 */
export function mapLogRow(
  project: SourceProject,
  row: Readonly<Record<string, unknown>>,
): MappedLog {
  const id = rowIdOf('logs', row);
  if ('skipped' in id) return { skipped: id.skipped.reason, rowId: id.skipped.rowId };
  const changes: LogChange[] = [];
  let type = int(row['type']);
  if (type < LogType.Unknown || type > SOURCE_ERROR_TYPE) {
    type = LogType.Unknown;
    changes.push('type-unknown');
  } else if (type === SOURCE_ERROR_TYPE) {
    type = LogType.Unknown;
    changes.push('type-5');
  }
  let other = project === 'new-api' ? text(row['other']) : '';
  if (other !== '' && !isJsonObject(other)) {
    other = '';
    changes.push('other-invalid');
  }
  return {
    rowId: id.rowId,
    changes,
    log: {
      type,
      createdAt: int(row['created_at']),
      userId: int(row['user_id']),
      username: text(row['username']),
      tokenName: text(row['token_name']),
      tokenId: project === 'new-api' ? int(row['token_id']) : 0,
      modelName: text(row['model_name']),
      quota: int(row['quota']),
      promptTokens: int(row['prompt_tokens']),
      completionTokens: int(row['completion_tokens']),
      useTime:
        project === 'new-api' ? int(row['use_time']) : Math.round(int(row['elapsed_time']) / 1000),
      isStream: bool(row['is_stream']),
      channelId: int(row['channel_id']),
      group: project === 'new-api' ? text(row['group']) : '',
      content: text(row['content']),
      other,
      requestId: project === 'one-api' ? text(row['request_id']) : '',
    },
  };
}

function isJsonObject(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** The report line of each kind of change, with how many rows it touched. */
export function logChangeReason(change: LogChange, rows: number, project: SourceProject): string {
  switch (change) {
    case 'type-5':
      return `${rows} rows of type 5 (${project === 'one-api' ? "one-api's channel test" : "new-api's error"}) imported as type 0 (unknown): Tollgate has no such type`;
    case 'type-unknown':
      return `${rows} rows of an unknown type imported as type 0 (unknown)`;
    case 'other-invalid':
      return `${rows} rows whose \`other\` is not a JSON object: imported without it`;
  }
}
