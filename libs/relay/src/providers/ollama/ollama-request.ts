/**
 * OpenAI chat and embeddings bodies as Ollama's native /api/chat and /api/embed bodies. Ollama
 * wants images as bare base64 on the message, tool-call arguments as objects, the sampling knobs
 * under `options`, and `stream` spelled out (it streams when the field is absent).
 */
import type { JsonObject } from '../../openai/request-body';
import { isObject, numberOf } from '../json-parts';

/**
 * `data:image/png;base64,AAA` → `AAA`. Any other URL is passed as is: the relay fetches nothing,
 * and Ollama rejects it with a clear error instead of the image silently vanishing.
 */
function imageData(url: string): string {
  const match = /^data:[^;,]*(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  return match ? match[1]! : url;
}

/** Text and images of an OpenAI content (a string or an array of parts). */
function splitContent(content: unknown): { text: string; images: string[] } {
  if (typeof content === 'string') return { text: content, images: [] };
  const texts: string[] = [];
  const images: string[] = [];
  if (Array.isArray(content)) {
    for (const part of content as unknown[]) {
      if (!isObject(part)) continue;
      if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
      const image = part.image_url;
      if (part.type === 'image_url') {
        const url = typeof image === 'string' ? image : isObject(image) ? image.url : undefined;
        if (typeof url === 'string') images.push(imageData(url));
      }
    }
  }
  return { text: texts.join('\n'), images };
}

/** OpenAI's JSON-string arguments as the object Ollama expects ({} when they are not JSON). */
function argumentsObject(raw: unknown): JsonObject {
  if (isObject(raw)) return raw;
  if (typeof raw !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function convertMessages(messages: unknown): JsonObject[] {
  const out: JsonObject[] = [];
  // Ollama names a tool result by the function's name, OpenAI by the call id.
  const toolNames = new Map<string, string>();
  for (const message of Array.isArray(messages) ? (messages as unknown[]) : []) {
    if (!isObject(message)) continue;
    const role =
      message.role === 'developer'
        ? 'system'
        : typeof message.role === 'string'
          ? message.role
          : 'user';
    const { text, images } = splitContent(message.content);
    const converted: JsonObject = { role, content: text };
    if (images.length > 0) converted.images = images;
    if (role === 'assistant' && Array.isArray(message.tool_calls)) {
      const calls: JsonObject[] = [];
      for (const call of message.tool_calls as unknown[]) {
        if (!isObject(call) || !isObject(call.function)) continue;
        const name = typeof call.function.name === 'string' ? call.function.name : '';
        if (typeof call.id === 'string') toolNames.set(call.id, name);
        calls.push({ function: { name, arguments: argumentsObject(call.function.arguments) } });
      }
      if (calls.length > 0) converted.tool_calls = calls;
    }
    if (role === 'tool' && typeof message.tool_call_id === 'string') {
      const name = toolNames.get(message.tool_call_id);
      if (name) converted.tool_name = name;
    }
    out.push(converted);
  }
  return out;
}

function options(openai: JsonObject): JsonObject | undefined {
  const o: JsonObject = {};
  const set = (key: string, value: unknown) => {
    const n = numberOf(value);
    if (n !== undefined) o[key] = n;
  };
  set('temperature', openai.temperature);
  set('top_p', openai.top_p);
  set('top_k', openai.top_k);
  set('num_predict', openai.max_completion_tokens ?? openai.max_tokens);
  set('seed', openai.seed);
  set('frequency_penalty', openai.frequency_penalty);
  set('presence_penalty', openai.presence_penalty);
  if (typeof openai.stop === 'string') o.stop = [openai.stop];
  else if (Array.isArray(openai.stop)) o.stop = openai.stop.filter((s) => typeof s === 'string');
  return Object.keys(o).length > 0 ? o : undefined;
}

/** `response_format` as Ollama's `format`: 'json', or the JSON schema itself. */
function format(responseFormat: unknown): unknown {
  if (!isObject(responseFormat)) return undefined;
  if (responseFormat.type === 'json_object') return 'json';
  if (responseFormat.type === 'json_schema' && isObject(responseFormat.json_schema)) {
    const schema = responseFormat.json_schema.schema;
    return isObject(schema) ? schema : 'json';
  }
  return undefined;
}

export function ollamaChatBody(openai: JsonObject, model: string, stream: boolean): JsonObject {
  const body: JsonObject = { model, messages: convertMessages(openai.messages), stream };
  if (Array.isArray(openai.tools) && openai.tools.length > 0) {
    body.tools = (openai.tools as unknown[]).filter(
      (tool) => isObject(tool) && tool.type === 'function',
    );
  }
  const opts = options(openai);
  if (opts) body.options = opts;
  const fmt = format(openai.response_format);
  if (fmt !== undefined) body.format = fmt;
  return body;
}

export function ollamaEmbedBody(openai: JsonObject, model: string): JsonObject {
  const body: JsonObject = { model, input: openai.input };
  const dimensions = numberOf(openai.dimensions);
  if (dimensions !== undefined) body.dimensions = dimensions;
  return body;
}
