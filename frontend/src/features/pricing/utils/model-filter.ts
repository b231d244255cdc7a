/**
 * new-api's fuzzy model-name filter: the name contains the typed text, ignoring case (and, here,
 * the spaces around it). An empty filter keeps everything.
 */
export function matchesModelName(name: string, filter: string): boolean {
  const wanted = filter.trim().toLowerCase();
  return wanted === '' || name.toLowerCase().includes(wanted);
}

/**
 * The group the page opens on: the user's own group when usable, else `default`, else the first
 * usable one ('' when there is none), as new-api's page starts on the user's group.
 */
export function initialGroup(usable: Readonly<Record<string, string>>, own: string | null): string {
  if (own && Object.hasOwn(usable, own)) return own;
  if (Object.hasOwn(usable, 'default')) return 'default';
  return Object.keys(usable)[0] ?? '';
}
