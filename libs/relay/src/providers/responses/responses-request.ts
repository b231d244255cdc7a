/**
 * OpenAI's Responses API request as an OpenAI chat body (the hub every converting adaptor reads),
 * for Responses clients (the Codex CLI, the openai SDK's `responses.create`) on channels that
 * speak no Responses API. The gateway keeps no conversation state, so what only OpenAI's own
 * store or tools can serve is refused with a reason rather than dropped.
 */
import type { JsonObject } from '../../openai/request-body';
import { isObject, numberOf, objects, stringOf, text } from '../json-parts';

/** Responses fields read as they are named on the chat wire. */
const SAME_NAMED = ['model', 'temperature', 'top_p', 'user', 'metadata', 'parallel_tool_calls'];

/**
 * The chat body of a Responses body; a string says why it cannot be served through chat (the
 * relay answers it as a 400).
 */
export function chatRequestOfResponses(body: JsonObject): JsonObject | string {
  if (body.previous_response_id !== undefined && body.previous_response_id !== null) {
    return 'previous_response_id needs the conversation stored upstream; this channel has no Responses API: send the whole conversation in input';
  }
  const tools = chatTools(body.tools);
  if (typeof tools === 'string') return tools;
  const messages = chatMessages(body.input, body.instructions);
  if (typeof messages === 'string') return messages;
  const chat: JsonObject = { messages };
  for (const key of SAME_NAMED)
    if (body[key] !== undefined && body[key] !== null) chat[key] = body[key];
  const ceiling = numberOf(body.max_output_tokens);
  if (ceiling !== undefined) chat.max_tokens = ceiling;
  if (body.stream === true) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  if (tools.length > 0) chat.tools = tools;
  const choice = chatToolChoice(body.tool_choice);
  if (choice !== undefined) chat.tool_choice = choice;
  const effort = isObject(body.reasoning) ? stringOf(body.reasoning.effort) : undefined;
  if (effort !== undefined) chat.reasoning_effort = effort;
  const format = chatResponseFormat(body.text);
  if (format !== undefined) chat.response_format = format;
  return chat;
}

/** Function tools as chat tools; OpenAI-hosted tools (web search, files, MCP…) are refused. */
function chatTools(tools: unknown): JsonObject[] | string {
  const out: JsonObject[] = [];
  for (const tool of objects(tools)) {
    if (tool.type !== 'function') {
      return `tool type ${text(tool.type) || '(none)'} is served only by OpenAI channels; this channel takes function tools`;
    }
    const fn: JsonObject = { name: text(tool.name) };
    if (tool.description !== undefined && tool.description !== null)
      fn.description = tool.description;
    if (tool.parameters !== undefined && tool.parameters !== null) fn.parameters = tool.parameters;
    if (typeof tool.strict === 'boolean') fn.strict = tool.strict;
    out.push({ type: 'function', function: fn });
  }
  return out;
}

function chatToolChoice(choice: unknown): unknown {
  if (typeof choice === 'string') return choice;
  if (isObject(choice) && choice.type === 'function') {
    return { type: 'function', function: { name: text(choice.name) } };
  }
  return undefined;
}

/** `text.format` as chat's `response_format` (json_schema's members move under `json_schema`). */
function chatResponseFormat(textOptions: unknown): JsonObject | undefined {
  const format =
    isObject(textOptions) && isObject(textOptions.format) ? textOptions.format : undefined;
  if (!format) return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type !== 'json_schema') return undefined;
  const schema: JsonObject = { name: text(format.name) || 'response', schema: format.schema };
  if (typeof format.strict === 'boolean') schema.strict = format.strict;
  if (typeof format.description === 'string') schema.description = format.description;
  return { type: 'json_schema', json_schema: schema };
}

/**
 * The input items as chat messages: instructions first (as the system message), function calls
 * gathered onto the assistant turn they follow, their outputs as tool messages. Reasoning items
 * carry a state only OpenAI can read (encrypted content); they are left out.
 */
function chatMessages(input: unknown, instructions: unknown): JsonObject[] | string {
  const messages: JsonObject[] = [];
  if (typeof instructions === 'string' && instructions !== '') {
    messages.push({ role: 'system', content: instructions });
  }
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
    return messages;
  }
  if (!Array.isArray(input)) return 'input must be a string or an array of input items';
  for (const item of objects(input)) {
    const type = item.type ?? 'message';
    if (type === 'message') {
      const message = chatMessage(item);
      if (typeof message === 'string') return message;
      messages.push(message);
    } else if (type === 'function_call') {
      assistantTurn(messages).tool_calls = [
        ...objects(assistantTurn(messages).tool_calls),
        {
          id: text(item.call_id),
          type: 'function',
          function: { name: text(item.name), arguments: text(item.arguments) || '{}' },
        },
      ];
    } else if (type === 'function_call_output') {
      messages.push({
        role: 'tool',
        tool_call_id: text(item.call_id),
        content: outputText(item.output),
      });
    } else if (type !== 'reasoning') {
      return `input item type ${text(type)} is served only by OpenAI channels`;
    }
  }
  return messages;
}

/** The assistant message function calls join: the last one, or a new one after anything else. */
function assistantTurn(messages: JsonObject[]): JsonObject {
  const last = messages[messages.length - 1];
  if (last && last.role === 'assistant') return last;
  const turn: JsonObject = { role: 'assistant', content: null };
  messages.push(turn);
  return turn;
}

/** A message item: `developer` is chat's system role; parts become chat's content parts. */
function chatMessage(item: JsonObject): JsonObject | string {
  const role = item.role === 'developer' ? 'system' : text(item.role);
  if (!['user', 'assistant', 'system'].includes(role)) {
    return `input message role ${role || '(none)'} is not one of user, assistant, system, developer`;
  }
  if (typeof item.content === 'string') return { role, content: item.content };
  const parts: JsonObject[] = [];
  for (const part of objects(item.content)) {
    const converted = chatPart(part);
    if (typeof converted === 'string') return converted;
    parts.push(converted);
  }
  // Chat's system and assistant messages take text; their parts are joined.
  if (role !== 'user') return { role, content: parts.map((p) => text(p.text)).join('') };
  return { role, content: parts };
}

function chatPart(part: JsonObject): JsonObject | string {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      return { type: 'text', text: text(part.text) };
    case 'refusal':
      return { type: 'text', text: text(part.refusal) };
    case 'input_image': {
      const url = stringOf(part.image_url);
      if (url === undefined)
        return 'input_image needs an image_url here (file_id needs OpenAI Files)';
      const image: JsonObject = { url };
      if (typeof part.detail === 'string') image.detail = part.detail;
      return { type: 'image_url', image_url: image };
    }
    default:
      return `content part type ${text(part.type) || '(none)'} is served only by OpenAI channels`;
  }
}

/** A function call's output: a string, or output parts whose text is joined. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  return objects(output)
    .map((part) => text(part.text))
    .join('');
}
