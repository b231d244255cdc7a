/**
 * A Gemini generateContent request from a client as an OpenAI chat body: the inverse of
 * gemini-request.ts. Google's JSON parser takes both lowerCamel and snake_case field names, so
 * both are read here.
 */
import type { IngressRoute } from '../ingress-codec';
import type { JsonObject } from '../../openai/request-body';
import { defined, isObject, numberOf, objectOf, objects, stringOf } from '../json-parts';
import { effortOfBudget } from '../reasoning-effort';

/** `obj.fieldName`, or `obj.field_name` as the snake_case spelling. */
function field(obj: JsonObject | undefined, camel: string): unknown {
  if (!obj) return undefined;
  return obj[camel] ?? obj[camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
}

export function geminiToOpenAi(body: JsonObject, route: IngressRoute): JsonObject | string {
  const model = route.model ?? stringOf(body.model)?.replace(/^models\//, '');
  if (!model) return 'model is required (POST /v1beta/models/{model}:generateContent)';
  const contents = objects(body.contents);
  if (contents.length === 0) return 'contents is required and must be a non-empty array';
  const messages: JsonObject[] = [];
  const system = systemText(field(body, 'systemInstruction'));
  if (system) messages.push({ role: 'system', content: system });
  const calls = new CallIds();
  for (const content of contents) {
    const parts = objects(content.parts);
    if (content.role === 'model') {
      const message = assistantMessage(parts, calls);
      if (message) messages.push(message);
    } else messages.push(...userMessages(parts, calls));
  }
  if (!messages.some((m) => m.role !== 'system')) return 'contents has no usable parts';
  const tools = toolsOf(body.tools);
  return defined({
    model,
    messages,
    tools: tools.length > 0 ? tools : undefined,
    tool_choice: toolChoice(
      objectOf(field(objectOf(field(body, 'toolConfig')), 'functionCallingConfig')),
    ),
    ...generation(objectOf(field(body, 'generationConfig'))),
    stream: route.stream === true ? true : undefined,
    stream_options: route.stream === true ? { include_usage: true } : undefined,
  });
}

function systemText(instruction: unknown): string {
  if (typeof instruction === 'string') return instruction;
  return objects(objectOf(instruction)?.parts)
    .map((p) => stringOf(p.text) ?? '')
    .filter((t) => t !== '')
    .join('\n');
}

/**
 * Call ids across the conversation: Gemini ids when the client sent them, else `call_<n>`; a
 * functionResponse without an id answers the oldest open call of its name.
 */
class CallIds {
  private count = 0;
  private readonly open: Array<{ id: string; name: string }> = [];

  add(call: JsonObject): string {
    const id = stringOf(call.id) || `call_${this.count}`;
    this.count += 1;
    this.open.push({ id, name: stringOf(call.name) ?? '' });
    return id;
  }

  answer(response: JsonObject): string {
    const given = stringOf(response.id);
    const at = this.open.findIndex((c) =>
      given ? c.id === given : c.name === stringOf(response.name),
    );
    if (at === -1) return given || `call_${this.count++}`;
    const [call] = this.open.splice(at, 1);
    return call!.id;
  }
}

function assistantMessage(parts: JsonObject[], calls: CallIds): JsonObject | undefined {
  let text = '';
  const toolCalls: JsonObject[] = [];
  for (const part of parts) {
    const call = objectOf(field(part, 'functionCall'));
    if (call) {
      const signature = stringOf(field(part, 'thoughtSignature'));
      toolCalls.push(
        defined({
          id: calls.add(call),
          type: 'function',
          function: { name: stringOf(call.name) ?? '', arguments: JSON.stringify(call.args ?? {}) },
          extra_content: signature ? { google: { thought_signature: signature } } : undefined,
        }),
      );
    } else if (typeof part.text === 'string' && part.thought !== true) text += part.text;
  }
  if (text === '' && toolCalls.length === 0) return undefined;
  return defined({
    role: 'assistant',
    content: text === '' ? null : text,
    tool_calls: toolCalls.length > 0 ? toolCalls : undefined,
  });
}

/** A user turn: its functionResponses as tool messages first, then the rest as one message. */
function userMessages(parts: JsonObject[], calls: CallIds): JsonObject[] {
  const out: JsonObject[] = [];
  const content: JsonObject[] = [];
  for (const part of parts) {
    const response = objectOf(field(part, 'functionResponse'));
    const inline = objectOf(field(part, 'inlineData'));
    const file = objectOf(field(part, 'fileData'));
    if (response) {
      out.push({ role: 'tool', tool_call_id: calls.answer(response), content: toolText(response) });
    } else if (typeof part.text === 'string') content.push({ type: 'text', text: part.text });
    else if (inline) content.push(inlinePart(inline));
    else if (file) {
      const url = stringOf(field(file, 'fileUri'));
      if (url) content.push({ type: 'image_url', image_url: { url } });
    }
  }
  if (content.length > 0) {
    const onlyText = content.every((p) => p.type === 'text');
    out.push({
      role: 'user',
      content: onlyText ? content.map((p) => p.text as string).join('') : content,
    });
  }
  return out;
}

/** `{content: "…"}` is how a plain-text answer travels in Gemini: it goes back as the text. */
function toolText(response: JsonObject): string {
  const value = objectOf(response.response) ?? {};
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'content' && typeof value.content === 'string') {
    return value.content;
  }
  return JSON.stringify(value);
}

function inlinePart(inline: JsonObject): JsonObject {
  const mime = stringOf(field(inline, 'mimeType')) ?? 'application/octet-stream';
  const data = stringOf(inline.data) ?? '';
  if (mime.startsWith('audio/')) {
    return { type: 'input_audio', input_audio: { data, format: mime.slice(6) } };
  }
  const url = `data:${mime};base64,${data}`;
  return mime.startsWith('image/')
    ? { type: 'image_url', image_url: { url } }
    : { type: 'file', file: { file_data: url } };
}

function toolsOf(tools: unknown): JsonObject[] {
  const out: JsonObject[] = [];
  for (const tool of objects(tools)) {
    for (const fn of objects(field(tool, 'functionDeclarations'))) {
      const jsonSchema = objectOf(field(fn, 'parametersJsonSchema'));
      const schema = objectOf(fn.parameters);
      out.push({
        type: 'function',
        function: defined({
          name: fn.name,
          description: fn.description,
          parameters: jsonSchema ?? (schema && jsonSchemaOf(schema)),
        }),
      });
    }
  }
  return out; // googleSearch, codeExecution… have no OpenAI form
}

/** Gemini's OpenAPI-style Schema names types in capitals (OBJECT, STRING); JSON Schema does not. */
function jsonSchemaOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonSchemaOf);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = key === 'type' && typeof item === 'string' ? item.toLowerCase() : jsonSchemaOf(item);
  }
  return out;
}

function toolChoice(config: JsonObject | undefined): unknown {
  const mode = stringOf(config?.mode);
  if (mode === 'AUTO') return 'auto';
  if (mode === 'NONE') return 'none';
  if (mode !== 'ANY') return undefined;
  const names = field(config, 'allowedFunctionNames');
  return Array.isArray(names) && names.length === 1 && typeof names[0] === 'string'
    ? { type: 'function', function: { name: names[0] } }
    : 'required';
}

function generation(config: JsonObject | undefined): JsonObject {
  if (!config) return {};
  const stop = field(config, 'stopSequences');
  const json = field(config, 'responseMimeType') === 'application/json';
  const schema =
    objectOf(field(config, 'responseJsonSchema')) ??
    (objectOf(field(config, 'responseSchema')) &&
      (jsonSchemaOf(field(config, 'responseSchema')) as JsonObject));
  const thinking = objectOf(field(config, 'thinkingConfig'));
  const level = stringOf(field(thinking, 'thinkingLevel'))?.toLowerCase();
  const budget = numberOf(field(thinking, 'thinkingBudget'));
  return defined({
    temperature: numberOf(config.temperature),
    top_p: numberOf(field(config, 'topP')),
    max_tokens: numberOf(field(config, 'maxOutputTokens')),
    stop: Array.isArray(stop) && stop.length > 0 ? stop : undefined,
    n: numberOf(field(config, 'candidateCount')),
    presence_penalty: numberOf(field(config, 'presencePenalty')),
    frequency_penalty: numberOf(field(config, 'frequencyPenalty')),
    seed: numberOf(config.seed),
    response_format: !json
      ? undefined
      : schema
        ? { type: 'json_schema', json_schema: { name: 'response', schema } }
        : { type: 'json_object' },
    reasoning_effort: level ?? (budget === undefined ? undefined : effortOfBudget(budget)),
  });
}
