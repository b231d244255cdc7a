import type { StatusDto } from '@tollgate/contracts';

export interface ChatTarget {
  name: string;
  /** URL template with `{address}` and `{key}` placeholders (spec 001 §7). */
  template: string;
}

/**
 * The chat targets of the row dropdown: the `Chats` option (a list of {name: template}); without it
 * the legacy ChatLink, opened ChatGPT-Next-Web style with the key and address in its settings.
 * Returns null when an entry is not a name → text pair (a bad configuration).
 */
export function chatTargets(status: Pick<StatusDto, 'chats' | 'chat_link'>): ChatTarget[] | null {
  if (!Array.isArray(status.chats)) return null;
  const targets: ChatTarget[] = [];
  for (const chat of status.chats) {
    if (!chat || typeof chat !== 'object') return null;
    for (const [name, template] of Object.entries(chat)) {
      if (typeof template !== 'string' || !template) return null;
      targets.push({ name, template });
    }
  }
  if (targets.length === 0 && status.chat_link) {
    targets.push({
      name: 'ChatGPT Next Web',
      template: `${status.chat_link}/#/?settings={"key":"{key}","url":"{address}"}`,
    });
  }
  return targets;
}

/** Fills a template with the server address (URL-encoded) and the full `sk-` key. */
export function chatUrl(template: string, address: string, key: string): string {
  return template
    .replaceAll('{address}', encodeURIComponent(address))
    .replaceAll('{key}', `sk-${key}`);
}
