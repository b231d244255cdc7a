import type { StatusDto } from '@tollgate/contracts';

/** One entry of the chat submenu / the token row's chat dropdown. */
export interface ChatTarget {
  name: string;
  /** URL template: `{address}`, `{key}`, `{cherryConfig}` or `{aionuiConfig}` get filled in. */
  template: string;
}

type ChatStatus = Pick<StatusDto, 'chats' | 'chat_link' | 'chat_link2'>;

/**
 * The chat targets, in order: the `Chats` option (a list of {name: template}); while it is empty,
 * the legacy ChatLink / ChatLink2 (ChatGPT-Next-Web style, key and address in its settings).
 * Returns null when the data cannot be read as such a list (the page then says it
 * failed to parse chat data); a stored status may also carry `chats` as the option's raw JSON text.
 */
export function chatTargets(status: Partial<ChatStatus>): ChatTarget[] | null {
  let chats: unknown = status.chats ?? [];
  if (typeof chats === 'string') {
    try {
      chats = JSON.parse(chats || '[]');
    } catch {
      return null;
    }
  }
  if (!Array.isArray(chats)) return null;
  const targets: ChatTarget[] = [];
  // One target per entry (its first pair, as new-api's dropdown reads it): /chat/{i} is entry i.
  for (const chat of chats as unknown[]) {
    if (!chat || typeof chat !== 'object' || Array.isArray(chat)) return null;
    const [first] = Object.entries(chat as Record<string, unknown>);
    if (!first) return null;
    const [name, template] = first;
    if (typeof template !== 'string' || !template) return null;
    targets.push({ name, template });
  }
  if (targets.length > 0) return targets;
  const legacy = (link: string | undefined) =>
    `${(link ?? '').replace(/\/+$/, '')}/#/?settings={"key":"{key}","url":"{address}"}`;
  if (status.chat_link)
    targets.push({ name: 'ChatGPT Next Web', template: legacy(status.chat_link) });
  if (status.chat_link2) {
    targets.push({ name: 'ChatGPT Web & Midjourney', template: legacy(status.chat_link2) });
  }
  return targets;
}

/** The address chat apps call: ServerAddress, else the console's own origin (as new-api does). */
export function chatServerAddress(status: Pick<StatusDto, 'server_address'>): string {
  return status.server_address || window.location.origin;
}

/** UTF-8 safe base64 (btoa alone rejects non-Latin-1 text). */
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Fills a chat template with the server address and a token key (without `sk-`), as new-api does:
 * `{cherryConfig}` / `{aionuiConfig}` become a URL-encoded base64 JSON provider config (Cherry
 * Studio, AionUi deep links); otherwise `{address}` becomes the URL-encoded address and `{key}` the
 * full `sk-` key.
 */
export function fillChatTemplate(template: string, address: string, key: string): string {
  const apiKey = `sk-${key}`;
  const config = (value: object) => encodeURIComponent(base64(JSON.stringify(value)));
  if (template.includes('{cherryConfig}')) {
    return template.replaceAll(
      '{cherryConfig}',
      config({ id: 'new-api', baseUrl: address, apiKey }),
    );
  }
  if (template.includes('{aionuiConfig}')) {
    return template.replaceAll(
      '{aionuiConfig}',
      config({ platform: 'new-api', baseUrl: address, apiKey }),
    );
  }
  return template.replaceAll('{address}', encodeURIComponent(address)).replaceAll('{key}', apiKey);
}
