/**
 * An OpenAI chat body as a Gemini generateContent body, and an OpenAI embeddings body as a
 * batchEmbedContents body. Pure: the upstream model name comes in already mapped.
 */
import type { JsonObject } from '../../openai/request-body';
import {
  defined,
  isObject,
  numberOf,
  objectOf,
  objects,
  parseObject,
  stringOf,
} from '../json-parts';
import { budgetOfEffort } from '../reasoning-effort';

/** Google's documented placeholder for a function call whose real signature was lost. */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

/** The types guessed from a URL's extension for `fileData` (Gemini reads them from the URI). */
const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
};

export function geminiChatBody(openai: JsonObject, upstreamModel: string): JsonObject {
  const system: JsonObject[] = [];
  const contents: JsonObject[] = [];
  // Tool messages name only the call id; Gemini's functionResponse needs the function's name.
  const callNames = new Map<string, string>();
  let toolTurn: JsonObject[] | undefined; // the parts of the open run of tool answers
  for (const message of objects(openai.messages)) {
    const role = stringOf(message.role);
    if (role === 'tool' || role === 'function') {
      const part = functionResponsePart(message, callNames);
      if (toolTurn) toolTurn.push(part);
      else {
        // Parallel calls are answered in one user turn holding every functionResponse.
        toolTurn = [part];
        contents.push({ role: 'user', parts: toolTurn });
      }
      continue;
    }
    toolTurn = undefined;
    if (role === 'system' || role === 'developer') {
      system.push(...contentParts(message.content).filter((p) => p.text !== undefined));
    } else if (role === 'assistant') {
      const parts = [...contentParts(message.content), ...functionCallParts(message, callNames)];
      if (parts.length > 0) contents.push({ role: 'model', parts });
    } else {
      const parts = contentParts(message.content);
      if (parts.length > 0) contents.push({ role: 'user', parts });
    }
  }
  if (needsSignatures(upstreamModel)) addMissingSignatures(contents);
  const tools = functionDeclarations(openai);
  return defined({
    contents,
    systemInstruction: system.length > 0 ? { parts: system } : undefined,
    tools: tools.length > 0 ? [{ functionDeclarations: tools }] : undefined,
    toolConfig: toolConfig(openai.tool_choice ?? openai.function_call),
    generationConfig: generationConfig(openai),
  });
}

export function geminiEmbedBody(openai: JsonObject, upstreamModel: string): JsonObject {
  const input = openai.input;
  const texts = Array.isArray(input)
    ? input.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)))
    : [typeof input === 'string' ? input : JSON.stringify(input ?? '')];
  const dimensions = numberOf(openai.dimensions);
  return {
    requests: texts.map((text) =>
      defined({
        model: `models/${upstreamModel}`,
        content: { parts: [{ text }] },
        outputDimensionality: dimensions,
      }),
    ),
  };
}

/** OpenAI message content (a string or typed parts) as Gemini parts. */
function contentParts(content: unknown): JsonObject[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  const parts: JsonObject[] = [];
  for (const part of objects(content)) {
    if (part.type === 'text' && typeof part.text === 'string') parts.push({ text: part.text });
    else if (part.type === 'image_url') {
      const url = stringOf(objectOf(part.image_url)?.url) ?? stringOf(part.image_url);
      if (url) parts.push(mediaPart(url));
    } else if (part.type === 'input_audio') {
      const audio = objectOf(part.input_audio);
      const data = stringOf(audio?.data);
      if (data) {
        parts.push({ inlineData: { mimeType: `audio/${stringOf(audio?.format) ?? 'wav'}`, data } });
      }
    } else if (part.type === 'file') {
      const data = stringOf(objectOf(part.file)?.file_data);
      if (data) parts.push(mediaPart(data));
    }
  }
  return parts;
}

/**
 * A data: URL is sent inline; any other URL as `fileData`, its type guessed from the extension and
 * left out when unknown (Gemini's fileData.mimeType is optional; a wrong guess would be worse).
 */
function mediaPart(url: string): JsonObject {
  if (url.startsWith('data:')) {
    const comma = url.indexOf(',');
    const header = url.slice(5, comma === -1 ? undefined : comma);
    const mimeType = header.split(';')[0] || 'application/octet-stream';
    return { inlineData: { mimeType, data: comma === -1 ? '' : url.slice(comma + 1) } };
  }
  const path = url.split(/[?#]/)[0] ?? '';
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return { fileData: defined({ mimeType: MIME_BY_EXTENSION[extension], fileUri: url }) };
}

function functionCallParts(message: JsonObject, callNames: Map<string, string>): JsonObject[] {
  const parts: JsonObject[] = [];
  const calls = objects(message.tool_calls);
  const legacy = objectOf(message.function_call);
  for (const call of legacy ? [...calls, { function: legacy }] : calls) {
    const fn = objectOf(call.function);
    const name = stringOf(fn?.name);
    if (!name) continue;
    const id = stringOf(call.id);
    if (id) callNames.set(id, name);
    const signature = stringOf(objectOf(objectOf(call.extra_content)?.google)?.thought_signature);
    parts.push(
      defined({
        functionCall: { name, args: argumentsObject(fn?.arguments) },
        thoughtSignature: signature,
      }),
    );
  }
  return parts;
}

/** Gemini's args are an object; OpenAI's arguments a JSON string (invalid or empty → {}). */
function argumentsObject(args: unknown): JsonObject {
  if (isObject(args)) return args;
  return typeof args === 'string' ? (parseObject(args) ?? {}) : {};
}

function functionResponsePart(message: JsonObject, callNames: Map<string, string>): JsonObject {
  const id = stringOf(message.tool_call_id);
  const name = (id && callNames.get(id)) || stringOf(message.name) || id || 'function';
  const text =
    typeof message.content === 'string'
      ? message.content
      : contentParts(message.content)
          .map((p) => stringOf(p.text) ?? '')
          .join('');
  // Gemini's response is an object: a JSON object answer as is, anything else wrapped.
  return { functionResponse: { name, response: parseObject(text) ?? { content: text } } };
}

function functionDeclarations(openai: JsonObject): JsonObject[] {
  const fns = [
    ...objects(openai.tools)
      .filter((t) => t.type === 'function')
      .map((t) => objectOf(t.function)),
    ...objects(openai.functions), // the deprecated form
  ];
  return fns.filter(isObject).map((fn) =>
    // OpenAI parameters are full JSON Schema (additionalProperties, $defs, …), which Gemini's
    // OpenAPI-subset `parameters` rejects; `parametersJsonSchema` takes it as it is.
    defined({
      name: fn.name,
      description: fn.description,
      parametersJsonSchema: objectOf(fn.parameters),
    }),
  );
}

function toolConfig(choice: unknown): JsonObject | undefined {
  let config: JsonObject | undefined;
  if (choice === 'auto') config = { mode: 'AUTO' };
  else if (choice === 'none') config = { mode: 'NONE' };
  else if (choice === 'required' || choice === 'any') config = { mode: 'ANY' };
  else if (isObject(choice)) {
    const name = stringOf(objectOf(choice.function)?.name) ?? stringOf(choice.name);
    if (name) config = { mode: 'ANY', allowedFunctionNames: [name] };
  }
  return config && { functionCallingConfig: config };
}

function generationConfig(openai: JsonObject): JsonObject | undefined {
  const stop = openai.stop;
  const budget = budgetOfEffort(openai.reasoning_effort);
  const format = objectOf(openai.response_format);
  const schema = objectOf(objectOf(format?.json_schema)?.schema);
  const json = format?.type === 'json_object' || format?.type === 'json_schema';
  const config = defined({
    temperature: numberOf(openai.temperature),
    topP: numberOf(openai.top_p),
    topK: numberOf(openai.top_k),
    maxOutputTokens: numberOf(openai.max_completion_tokens) ?? numberOf(openai.max_tokens),
    stopSequences: typeof stop === 'string' ? [stop] : Array.isArray(stop) ? stop : undefined,
    candidateCount: numberOf(openai.n),
    presencePenalty: numberOf(openai.presence_penalty),
    frequencyPenalty: numberOf(openai.frequency_penalty),
    seed: numberOf(openai.seed),
    responseMimeType: json ? 'application/json' : undefined,
    // OpenAI strict schemas carry additionalProperties: false; only the JSON Schema field takes it.
    responseJsonSchema: format?.type === 'json_schema' ? schema : undefined,
    thinkingConfig:
      budget === undefined
        ? undefined
        : budget === 0
          ? { thinkingBudget: 0 }
          : { thinkingBudget: budget, includeThoughts: true },
  });
  return Object.keys(config).length > 0 ? config : undefined;
}

/** Gemini 3 and later refuse replayed function calls without their thought signature. */
function needsSignatures(model: string): boolean {
  const major = /gemini-(\d+)/.exec(model)?.[1];
  return major !== undefined && Number(major) >= 3;
}

/** Only the first call of a turn carries a signature (parallel calls share it). */
function addMissingSignatures(contents: JsonObject[]): void {
  for (const content of contents) {
    if (content.role !== 'model') continue;
    const parts = objects(content.parts);
    if (parts.some((p) => p.thoughtSignature !== undefined)) continue;
    const first = parts.find((p) => p.functionCall !== undefined);
    if (first) first.thoughtSignature = SKIP_SIGNATURE;
  }
}
