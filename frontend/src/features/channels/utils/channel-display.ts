import { CHANNEL_TYPES } from '@tollgate/contracts';
import { formatDateTime } from '@/utils/date-time';

/** Unix seconds → the console's date and time (`2026-12-02 12:00:59`); 0 means never (''). */
export function formatUnixTime(seconds: number): string {
  return seconds > 0 ? formatDateTime(seconds) : '';
}

/** The type's display name, or null for type 0 and numbers the table does not know. */
export function channelTypeName(type: number): string | null {
  return CHANNEL_TYPES[type] ?? null;
}

/** Comma-separated wire lists (models, groups) → trimmed, de-duplicated, non-empty names. */
export function splitList(text: string | null | undefined): string[] {
  const names = (text ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return Array.from(new Set(names));
}

const TAG_COLORS = [
  'blue',
  'cyan',
  'teal',
  'green',
  'lime',
  'grape',
  'violet',
  'indigo',
  'pink',
  'orange',
] as const;

/** A stable colour per group name, so the same group looks the same on every row. */
export function groupColor(group: string): string {
  if (group === 'default') return 'gray';
  let hash = 0;
  for (const char of group) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return TAG_COLORS[Math.abs(hash) % TAG_COLORS.length] ?? 'blue';
}
