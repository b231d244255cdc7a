/**
 * OpenAI chat bodies as DashScope's native text-generation body: the conversation under
 * `input.messages`, the knobs under `parameters`. `result_format: 'message'` makes DashScope answer
 * with OpenAI-like choices; `incremental_output` makes each stream event carry only the new text
 * (without it every event repeats the whole answer so far).
 */
import type { JsonObject } from '../../openai/request-body';
import { contentText, defined, isObject, objects, text } from '../json-parts';

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

function convertMessage(message: JsonObject): JsonObject {
  const role = message.role === 'developer' ? 'system' : text(message.role) || 'user';
  const out: JsonObject = { role, content: contentText(message.content) };
  if (role === 'assistant' && Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
    // DashScope takes OpenAI's tool-call shape as is.
    out.tool_calls = objects(message.tool_calls);
  }
  if (role === 'tool') {
    if (typeof message.tool_call_id === 'string') out.tool_call_id = message.tool_call_id;
    if (typeof message.name === 'string') out.name = message.name;
  }
  return out;
}

function stopList(stop: unknown): string[] | undefined {
  if (typeof stop === 'string') return [stop];
  if (Array.isArray(stop)) return stop.filter((s): s is string => typeof s === 'string');
  return undefined;
}

export function aliChatBody(openai: JsonObject, model: string, stream: boolean): JsonObject {
  const tools = objects(openai.tools).filter((tool) => tool.type === 'function');
  const parameters = defined({
    result_format: 'message',
    incremental_output: stream ? true : undefined,
    max_tokens: num(openai.max_completion_tokens ?? openai.max_tokens),
    temperature: num(openai.temperature),
    top_p: num(openai.top_p),
    top_k: num(openai.top_k),
    seed: num(openai.seed),
    presence_penalty: num(openai.presence_penalty),
    stop: stopList(openai.stop),
    tools: tools.length > 0 ? tools : undefined,
    tool_choice: openai.tool_choice,
    parallel_tool_calls:
      typeof openai.parallel_tool_calls === 'boolean' ? openai.parallel_tool_calls : undefined,
    enable_thinking:
      typeof openai.enable_thinking === 'boolean' ? openai.enable_thinking : undefined,
    response_format: isObject(openai.response_format) ? openai.response_format : undefined,
  });
  return {
    model,
    input: { messages: objects(openai.messages).map(convertMessage) },
    parameters,
  };
}
