import { REDEMPTION_STATUSES, RedemptionStatus } from '@tollgate/contracts';
import type { ImportSource } from '@tollgate/domain';
import type { Mapped, ReportItem } from './import-mapping';
import type { SourceProject } from './source-database';
import { int, rowIdOf, text } from './row-values';

type Row = Record<string, unknown>;

/** A redemptions row as RedemptionImported facts; the key in clear (sealed and hashed by the writer). */
export interface RedemptionFacts {
  readonly redemptionId: number;
  readonly createdBy: number;
  /** The code (32 hex characters in both sources); never reported. */
  readonly key: string;
  readonly name: string;
  readonly quota: number;
  readonly status: RedemptionStatus;
  readonly createdTime: number;
  readonly redeemedTime: number;
  readonly usedUserId: number;
  readonly deleted: boolean;
  readonly source: ImportSource;
}
export interface MappedRedemption {
  readonly redemption: RedemptionFacts;
  readonly items: ReportItem[];
}

/** One redemptions row (1 unused, 2 disabled, 3 used in both projects), or why it is skipped. */
export function mapRedemptionRow(
  project: SourceProject,
  row: Row,
  importedAt: string,
): Mapped<MappedRedemption> {
  const id = rowIdOf('redemptions', row);
  if ('skipped' in id) return id;
  const { rowId, at } = id;
  // PostgreSQL pads char(32): trimmed like every text.
  const key = text(row['key']);
  if (key === '') return { skipped: { ...at, action: 'skipped', reason: 'empty key' } };
  const items: ReportItem[] = [];
  let name = text(row['name']);
  if (name === '') {
    name = `code-${rowId}`;
    items.push({ ...at, action: 'changed', field: 'name', reason: `empty: named ${name}` });
  }
  let quota = int(row['quota']);
  if (quota < 0) {
    items.push({
      ...at,
      action: 'changed',
      field: 'quota',
      reason: `${quota} is negative: imported as 0`,
    });
    quota = 0;
  }
  let status = int(row['status']);
  if (!REDEMPTION_STATUSES.includes(status)) {
    items.push({
      ...at,
      action: 'changed',
      field: 'status',
      reason: `unknown status ${status}: imported as disabled`,
    });
    status = RedemptionStatus.Disabled;
  }
  const deleted = row['deleted_at'] !== null && row['deleted_at'] !== undefined;
  return {
    redemption: {
      redemptionId: rowId,
      createdBy: Math.max(0, int(row['user_id'])),
      key,
      name,
      quota,
      status: status as RedemptionStatus,
      createdTime: Math.max(0, int(row['created_time'])),
      redeemedTime: status === RedemptionStatus.Used ? Math.max(0, int(row['redeemed_time'])) : 0,
      usedUserId: project === 'new-api' ? Math.max(0, int(row['used_user_id'])) : 0,
      deleted,
      source: { project, table: 'redemptions', rowId, importedAt },
    },
    items,
  };
}
