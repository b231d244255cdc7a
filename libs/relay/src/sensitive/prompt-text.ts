/**
 * What the sensitive-word check reads of a request (one-api's and new-api's CheckSensitive* on the
 * prompt): the text of the chat messages (text parts only, images skipped), the completion prompt,
 * the embeddings / moderation / speech input, the image prompt. Pieces are checked apart, so a word
 * never spans two messages.
 */
import type { RelayEndpoint } from '../openai/openai-wire';
import type { JsonObject } from '../openai/request-body';

/** The texts of `value`: strings, arrays of them, and the `text` / `content` of parts. */
function collect(value: unknown, out: string[], depth = 0): void {
  if (depth > 8 || value === null || value === undefined) return;
  if (typeof value === 'string') {
    if (value !== '') out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collect(item, out, depth + 1);
    return;
  }
  if (typeof value === 'object') {
    const part = value as JsonObject;
    collect(part.text, out, depth + 1);
    collect(part.content, out, depth + 1);
  }
}

const FIELD: Partial<Record<RelayEndpoint, string>> = {
  chat: 'messages',
  completions: 'prompt',
  embeddings: 'input',
  moderations: 'input',
  imagesGenerations: 'prompt',
  audioSpeech: 'input',
  responses: 'input',
};

/** The prompt texts of an OpenAI-shaped request body (the hub of every ingress). */
export function promptTexts(endpoint: RelayEndpoint, body: JsonObject): string[] {
  const field = FIELD[endpoint];
  const out: string[] = [];
  if (field !== undefined) collect(body[field], out);
  if (endpoint === 'responses') collect(body.instructions, out);
  return out;
}

/** Content part types that carry an image / a file into the relay (OpenAI chat and Responses). */
const IMAGE_PARTS = new Set(['image_url', 'input_image', 'image']);
const FILE_PARTS = new Set(['file', 'input_file', 'input_audio', 'document']);

/** Whether a request uploads images or files in its messages' content parts. */
export function uploadsOf(
  endpoint: RelayEndpoint,
  body: JsonObject,
): {
  images: boolean;
  files: boolean;
} {
  const found = { images: false, files: false };
  const field = FIELD[endpoint];
  if (field === undefined) return found;
  const items = body[field];
  if (!Array.isArray(items)) return found;
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    const content = (item as JsonObject).content;
    const parts = Array.isArray(content) ? content : [item];
    for (const part of parts) {
      if (part === null || typeof part !== 'object') continue;
      const type = (part as JsonObject).type;
      if (typeof type !== 'string') continue;
      if (IMAGE_PARTS.has(type)) found.images = true;
      else if (FILE_PARTS.has(type)) found.files = true;
    }
  }
  return found;
}
