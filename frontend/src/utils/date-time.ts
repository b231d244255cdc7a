const pad = (value: number) => String(value).padStart(2, '0');

/** Unix seconds → local `YYYY-MM-DD HH:mm:ss` (how the console shows and edits times). */
export function formatDateTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

const PATTERN = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2}))?)?$/;

/**
 * Local `YYYY-MM-DD[ HH:mm[:ss]]` → unix seconds, or null when the text is not a real date
 * (month 13, 31 February…): the caller shows its own "bad format" message.
 */
export function parseDateTime(text: string): number | null {
  const match = PATTERN.exec(text.trim());
  if (!match) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part))) as number[];
  if (year === undefined || month === undefined || day === undefined) return null;
  const date = new Date(year, month - 1, day, hour, minute, second);
  const exact =
    date.getFullYear() === year &&
    date.getMonth() === month - 1 &&
    date.getDate() === day &&
    date.getHours() === hour &&
    date.getMinutes() === minute &&
    date.getSeconds() === second;
  return exact ? Math.floor(date.getTime() / 1000) : null;
}

/** Local midnight of the day `seconds` falls in. */
export function startOfDay(seconds: number): number {
  const date = new Date(seconds * 1000);
  date.setHours(0, 0, 0, 0);
  return Math.floor(date.getTime() / 1000);
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
