import type { Prepared } from './relay-call';

/**
 * Everything the client's request said, lower-cased: the JSON body's keys and string values as
 * decoded (so `\u0059our …` escapes count as what they spell), else the raw body (multipart), and
 * the model named in the path. Built only when an upstream error matched a disabling keyword.
 */
export function clientSentText(p: Pick<Prepared, 'body' | 'call' | 'facts'>): string {
  const parts: string[] = [p.facts.model, p.call.modelFromPath ?? ''];
  if (p.body) collectStrings(p.body, parts);
  else parts.push(p.call.raw.toString('utf8'));
  return parts.join('\n').toLowerCase();
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      collectStrings(item, into);
    }
}

/** `sentByClient` for the disabling rules: whether the request itself carried the keyword. */
export function keywordSentBy(
  p: Pick<Prepared, 'body' | 'call' | 'facts'>,
): (keyword: string) => boolean {
  let text: string | undefined;
  return (keyword) => (text ??= clientSentText(p)).includes(keyword.toLowerCase());
}
