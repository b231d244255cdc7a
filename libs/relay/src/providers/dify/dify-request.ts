/**
 * OpenAI chat bodies as Dify's /v1/chat-messages body. A Dify app keeps its own conversation
 * state and takes one `query`, so the relay starts a new conversation per call (no
 * conversation_id) and folds the OpenAI history into the query:
 * - a lone user message is the query as it is;
 * - anything longer becomes a transcript, one `ROLE:` block per turn (SYSTEM, USER, ASSISTANT,
 *   TOOL), the last user turn last, so the app's model sees the whole conversation.
 * Image parts go as `files` with `transfer_method: remote_url` (Dify fetches them; a data: URL is
 * refused by Dify with its own error rather than dropped here).
 */
import type { JsonObject } from '../../openai/request-body';
import { contentText, isObject, objects, text } from '../json-parts';

/** Dify's `user` when the client sent none (Dify requires one). */
export const DIFY_DEFAULT_USER = 'tollgate';

function imageUrls(content: unknown): string[] {
  return objects(content)
    .filter((part) => part.type === 'image_url')
    .map((part) => (isObject(part.image_url) ? text(part.image_url.url) : text(part.image_url)))
    .filter((url) => url !== '');
}

export function difyQuery(messages: JsonObject[]): string {
  if (messages.length === 1 && messages[0]!.role === 'user') {
    return contentText(messages[0]!.content);
  }
  return messages
    .map((message) => {
      const role = message.role === 'developer' ? 'system' : text(message.role) || 'user';
      return `${role.toUpperCase()}:\n${contentText(message.content)}`;
    })
    .join('\n\n');
}

export function difyChatBody(openai: JsonObject, stream: boolean): JsonObject {
  const messages = objects(openai.messages);
  const files = messages
    .filter((message) => message.role === 'user')
    .flatMap((message) => imageUrls(message.content))
    .map((url) => ({ type: 'image', transfer_method: 'remote_url', url }));
  const body: JsonObject = {
    inputs: {},
    query: difyQuery(messages),
    response_mode: stream ? 'streaming' : 'blocking',
    user: text(openai.user) || DIFY_DEFAULT_USER,
  };
  if (files.length > 0) body.files = files;
  return body;
}
