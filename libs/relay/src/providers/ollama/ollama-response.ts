/**
 * Ollama's answers in OpenAI shapes: a chat answer (the single `done: true` object of a non-stream
 * call), an /api/embed answer, usage (prompt_eval_count / eval_count) and error bodies
 * (`{"error": "..."}`). The stream converter shares the small readers here.
 */
import { withFields } from '@tollgate/domain';
import type { UpstreamErrorInfo } from '../../errors/relay-error';
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import type { ConvertContext, ConvertedAnswer, ConvertedFailure } from '../chat-adaptor';
import { count, isObject } from '../json-parts';
import { chatChoice, chatCompletion } from '../openai-chunks';
import { typeOfStatus } from '../provider-errors';

/** Usage of a final (`done: true`) object or an embed answer; undefined when it has no counts. */
export function ollamaUsage(provider: JsonObject): UpstreamUsage | undefined {
  if (provider.prompt_eval_count === undefined && provider.eval_count === undefined) {
    return undefined;
  }
  return {
    promptTokens: count(provider.prompt_eval_count),
    completionTokens: count(provider.eval_count),
    cachedTokens: 0,
  };
}

/** Ollama reports `stop` even when the model called tools; OpenAI clients expect `tool_calls`. */
export function finishReason(doneReason: unknown, calledTools: boolean): string {
  if (calledTools) return 'tool_calls';
  return doneReason === 'length' ? 'length' : 'stop';
}

/**
 * Ollama tool calls (arguments as objects, no ids) as OpenAI ones; `first` numbers the ids
 * (`call_<n>`) across a stream. `withIndex` adds the `index` stream deltas carry.
 */
export function openAiToolCalls(calls: unknown, first: number, withIndex: boolean): JsonObject[] {
  if (!Array.isArray(calls)) return [];
  const out: JsonObject[] = [];
  for (const call of calls as unknown[]) {
    if (!isObject(call) || !isObject(call.function)) continue;
    const n = first + out.length;
    const args = call.function.arguments;
    out.push(
      withFields(withIndex ? { index: n } : {}, {
        id: `call_${n}`,
        type: 'function',
        function: {
          name: typeof call.function.name === 'string' ? call.function.name : '',
          arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
        },
      }),
    );
  }
  return out;
}

/** An `{"error": "..."}` object (in a 2xx body or a stream line) as a failure. */
export function ollamaFailure(provider: JsonObject): ConvertedFailure | undefined {
  if (provider.error === undefined || provider.error === null) return undefined;
  const message =
    typeof provider.error === 'string' ? provider.error : JSON.stringify(provider.error);
  return { status: 500, info: { message, type: 'upstream_error', code: '' } };
}

export function ollamaChatAnswer(provider: JsonObject, ctx: ConvertContext): ConvertedAnswer {
  const failure = ollamaFailure(provider);
  if (failure) return { ok: false, failure };
  const message = isObject(provider.message) ? provider.message : {};
  const toolCalls = openAiToolCalls(message.tool_calls, 0, false);
  const out: JsonObject = {
    role: 'assistant',
    content: typeof message.content === 'string' ? message.content : '',
  };
  if (typeof message.thinking === 'string' && message.thinking !== '') {
    out.reasoning_content = message.thinking;
  }
  if (toolCalls.length > 0) out.tool_calls = toolCalls;
  const usage = ollamaUsage(provider);
  const finish = finishReason(provider.done_reason, toolCalls.length > 0);
  return { ok: true, body: chatCompletion(ctx, [chatChoice(out, finish)], usage), usage };
}

export function ollamaEmbedAnswer(provider: JsonObject, ctx: ConvertContext): ConvertedAnswer {
  const failure = ollamaFailure(provider);
  if (failure) return { ok: false, failure };
  const embeddings = Array.isArray(provider.embeddings) ? (provider.embeddings as unknown[]) : [];
  const prompt = count(provider.prompt_eval_count);
  const usage: UpstreamUsage | undefined =
    provider.prompt_eval_count === undefined
      ? undefined
      : { promptTokens: prompt, completionTokens: 0, cachedTokens: 0 };
  return {
    ok: true,
    body: {
      object: 'list',
      data: embeddings.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      model: ctx.model,
      usage: { prompt_tokens: prompt, total_tokens: prompt },
    },
    usage,
  };
}

/** OpenAI error types a client can act on; Ollama's bodies carry only a message. */
function errorType(status: number): string {
  if (status === 400 || status === 404) return 'invalid_request_error';
  return typeOfStatus(status);
}

export function ollamaError(status: number, text: string): UpstreamErrorInfo {
  let message = text.trim().slice(0, 1000);
  try {
    const parsed: unknown = JSON.parse(text);
    if (isObject(parsed) && typeof parsed.error === 'string') message = parsed.error;
    else if (isObject(parsed) && isObject(parsed.error) && typeof parsed.error.message === 'string')
      message = parsed.error.message; // an OpenAI-speaking proxy in front of Ollama
  } catch {
    // a proxy's HTML or plain text: the text itself is the message
  }
  if (message === '') message = `Ollama answered HTTP ${status}`;
  return { message, type: errorType(status), code: '' };
}
