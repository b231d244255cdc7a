/**
 * A search box's text as a `$regex` literal (metacharacters escaped): the read store then matches
 * it as a plain substring (and the SQLite adapter can use its literal-substring index).
 */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
