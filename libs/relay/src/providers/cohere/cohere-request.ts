/**
 * An OpenAI chat body as Cohere's v2 /v2/chat body. The v2 messages are close to OpenAI's (system,
 * user, assistant with tool_calls, tool with tool_call_id); the knobs are renamed (top_p → p,
 * stop → stop_sequences), tool_choice is upper-case, and a JSON schema rides inside json_object.
 */
import type { JsonObject } from '../../openai/request-body';
import { isObject, numberOf } from '../json-parts';

/** OpenAI content parts as Cohere's (text and image_url blocks keep their shapes). */
function userContent(content: unknown): unknown {
  if (!Array.isArray(content)) return typeof content === 'string' ? content : '';
  const parts: JsonObject[] = [];
  for (const part of content as unknown[]) {
    if (!isObject(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') {
      parts.push({ type: 'text', text: part.text });
    } else if (part.type === 'image_url') {
      const image = part.image_url;
      const url = typeof image === 'string' ? image : isObject(image) ? image.url : undefined;
      if (typeof url === 'string') parts.push({ type: 'image_url', image_url: { url } });
    }
  }
  return parts;
}

/** Cohere's system, assistant and tool messages take text only. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as unknown[])
    .filter((p): p is JsonObject => isObject(p) && p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('\n');
}

function convertMessage(message: JsonObject): JsonObject {
  switch (message.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: textOf(message.content) };
    case 'assistant': {
      const out: JsonObject = { role: 'assistant' };
      const text = textOf(message.content);
      const calls = Array.isArray(message.tool_calls)
        ? (message.tool_calls as unknown[]).filter(isObject).map((call) => ({
            id: call.id,
            type: 'function',
            function: {
              name: isObject(call.function) ? call.function.name : '',
              arguments: isObject(call.function) ? call.function.arguments : '{}',
            },
          }))
        : [];
      if (calls.length > 0) out.tool_calls = calls;
      // Cohere rejects an assistant turn with neither content nor tool calls.
      if (text !== '' || calls.length === 0) out.content = text;
      return out;
    }
    case 'tool':
      return {
        role: 'tool',
        tool_call_id: message.tool_call_id,
        content: textOf(message.content),
      };
    default:
      return { role: 'user', content: userContent(message.content) };
  }
}

function toolChoice(body: JsonObject, openai: JsonObject): void {
  const choice = openai.tool_choice;
  if (choice === 'required') body.tool_choice = 'REQUIRED';
  else if (choice === 'none') body.tool_choice = 'NONE';
  else if (isObject(choice) && isObject(choice.function) && Array.isArray(body.tools)) {
    // Cohere cannot name one tool: keep only that tool and require a call.
    const name = choice.function.name;
    body.tools = (body.tools as JsonObject[]).filter(
      (tool) => isObject(tool.function) && tool.function.name === name,
    );
    body.tool_choice = 'REQUIRED';
  }
}

function responseFormat(format: unknown): JsonObject | undefined {
  if (!isObject(format)) return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type === 'json_schema' && isObject(format.json_schema)) {
    const schema = format.json_schema.schema;
    return isObject(schema)
      ? { type: 'json_object', json_schema: schema }
      : { type: 'json_object' };
  }
  return undefined;
}

export function cohereChatBody(openai: JsonObject, model: string, stream: boolean): JsonObject {
  const messages = Array.isArray(openai.messages)
    ? (openai.messages as unknown[]).filter(isObject).map(convertMessage)
    : [];
  const body: JsonObject = { model, messages, stream };
  if (Array.isArray(openai.tools) && openai.tools.length > 0) {
    body.tools = (openai.tools as unknown[]).filter(
      (tool) => isObject(tool) && tool.type === 'function',
    );
    toolChoice(body, openai);
  }
  const set = (key: string, value: unknown) => {
    const n = numberOf(value);
    if (n !== undefined) body[key] = n;
  };
  set('max_tokens', openai.max_completion_tokens ?? openai.max_tokens);
  set('temperature', openai.temperature);
  set('p', openai.top_p);
  set('k', openai.top_k);
  set('seed', openai.seed);
  set('frequency_penalty', openai.frequency_penalty);
  set('presence_penalty', openai.presence_penalty);
  if (typeof openai.stop === 'string') body.stop_sequences = [openai.stop];
  else if (Array.isArray(openai.stop)) {
    body.stop_sequences = openai.stop.filter((s) => typeof s === 'string');
  }
  const format = responseFormat(openai.response_format);
  if (format) body.response_format = format;
  return body;
}
