/** Column values as SQLite, MySQL and PostgreSQL drivers hand them over, read one way. */

/** Text trimmed (PostgreSQL pads char(n)); a number as its digits; anything else ''. */
export const text = (value: unknown): string =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';

/** An integer (bigint and numeric text too); 0 for anything that is not a finite number. */
export const int = (value: unknown): number => {
  const n = typeof value === 'bigint' ? Number(value) : Number(value ?? 0);
  return Number.isFinite(n) ? Math.trunc(n) : 0;
};

export const float = (value: unknown): number => {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
};

/** SQLite numeric 0/1, MySQL tinyint, PostgreSQL boolean, or text. */
export const bool = (value: unknown): boolean =>
  value === true || value === 1 || value === 1n || value === '1' || value === 'true';

export const present = (value: unknown): boolean => value !== null && value !== undefined;

/** The row's id when it is a positive integer, else why the row is skipped. */
export function rowIdOf(
  table: string,
  row: Readonly<Record<string, unknown>>,
):
  | { readonly rowId: number; readonly at: { readonly table: string; readonly rowId: number } }
  | { readonly skipped: { table: string; rowId: number; action: 'skipped'; reason: string } } {
  const rowId = int(row['id']);
  if (rowId > 0) return { rowId, at: { table, rowId } };
  return {
    skipped: {
      table,
      rowId,
      action: 'skipped',
      reason: `id ${String(row['id'])} is not a positive integer`,
    },
  };
}

/** JSON text of an object, parsed; null when it is not valid JSON or not an object. */
export function parseObject(raw: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
