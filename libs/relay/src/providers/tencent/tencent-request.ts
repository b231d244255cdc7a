/**
 * OpenAI chat bodies as Hunyuan's ChatCompletions body (TencentCloud API 2023-09-01): PascalCase
 * members, `Messages: [{Role, Content}]`.
 */
import type { JsonObject } from '../../openai/request-body';
import { contentText, defined, objects, text } from '../json-parts';

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

function convertMessage(message: JsonObject): JsonObject {
  const role = message.role === 'developer' ? 'system' : text(message.role) || 'user';
  return defined({
    Role: role,
    Content: contentText(message.content),
    ToolCallId: role === 'tool' ? text(message.tool_call_id) || undefined : undefined,
  });
}

export function tencentChatBody(openai: JsonObject, model: string, stream: boolean): JsonObject {
  return defined({
    Model: model,
    Messages: objects(openai.messages).map(convertMessage),
    Stream: stream,
    Temperature: num(openai.temperature),
    TopP: num(openai.top_p),
  });
}
