/**
 * OpenAI answers in a Gemini client's shapes: a chat.completion as a GenerateContentResponse, and
 * chunks as `alt=sse` events (`data: <json>` + CRLF CRLF, no end marker). Tool calls stream in
 * OpenAI as fragments but arrive whole in Gemini, so they are held until their choice finishes.
 */
import type { ConvertContext } from '../chat-adaptor';
import type { StreamEncoder } from '../ingress-codec';
import type { JsonObject } from '../../openai/request-body';
import { usageFromObject, type UpstreamUsage } from '../../openai/usage-reader';
import { defined, numberOf, objectOf, objects, parseObject, stringOf } from '../json-parts';

const GEMINI_FINISH: Readonly<Record<string, string>> = {
  stop: 'STOP',
  length: 'MAX_TOKENS',
  content_filter: 'SAFETY',
  tool_calls: 'STOP',
  function_call: 'STOP',
};

const geminiFinish = (reason: unknown): string =>
  (typeof reason === 'string' && GEMINI_FINISH[reason]) || 'STOP';

export function usageMetadata(usage: UpstreamUsage): JsonObject {
  const thoughts = usage.reasoningTokens ?? 0;
  return defined({
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: Math.max(0, usage.completionTokens - thoughts),
    totalTokenCount: usage.promptTokens + usage.completionTokens,
    cachedContentTokenCount: usage.cachedTokens > 0 ? usage.cachedTokens : undefined,
    thoughtsTokenCount: thoughts > 0 ? thoughts : undefined,
  });
}

/** A whole OpenAI tool call as a functionCall part (its thought signature back in place). */
function functionCallPart(call: JsonObject): JsonObject {
  const fn = objectOf(call.function);
  const args = stringOf(fn?.arguments);
  const signature = stringOf(objectOf(objectOf(call.extra_content)?.google)?.thought_signature);
  return defined({
    functionCall: { name: stringOf(fn?.name) ?? '', args: (args && parseObject(args)) ?? {} },
    thoughtSignature: signature,
  });
}

function messageParts(message: JsonObject | undefined): JsonObject[] {
  const parts: JsonObject[] = [];
  const reasoning = stringOf(message?.reasoning_content);
  if (reasoning) parts.push({ text: reasoning, thought: true });
  const content = message?.content;
  if (typeof content === 'string' && content !== '') parts.push({ text: content });
  parts.push(...objects(message?.tool_calls).map(functionCallPart));
  return parts.length > 0 ? parts : [{ text: '' }];
}

export function openAiToGemini(
  openai: JsonObject,
  usage: UpstreamUsage | undefined,
  ctx: ConvertContext,
): JsonObject {
  const candidates = objects(openai.choices).map((choice, position) => ({
    content: { role: 'model', parts: messageParts(objectOf(choice.message)) },
    finishReason: geminiFinish(choice.finish_reason),
    index: numberOf(choice.index) ?? position,
  }));
  const counted = usage ?? usageFromObject(openai.usage);
  return defined({
    candidates,
    usageMetadata: counted && usageMetadata(counted),
    modelVersion: ctx.model,
    responseId: ctx.id,
  });
}

interface PendingCall {
  id?: string;
  name: string;
  arguments: string;
  signature?: string;
}

export class GeminiStreamEncoder implements StreamEncoder {
  /** Tool calls being assembled, per choice then per call index. */
  private readonly calls = new Map<number, Map<number, PendingCall>>();
  private readonly finishes = new Map<number, string>();

  constructor(private readonly ctx: ConvertContext) {}

  chunk(openai: JsonObject): string {
    let out = '';
    for (const choice of objects(openai.choices)) {
      const index = numberOf(choice.index) ?? 0;
      const delta = objectOf(choice.delta);
      const parts: JsonObject[] = [];
      const reasoning = stringOf(delta?.reasoning_content);
      if (reasoning) parts.push({ text: reasoning, thought: true });
      const text = stringOf(delta?.content);
      if (text) parts.push({ text });
      for (const call of objects(delta?.tool_calls)) this.collect(index, call);
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) {
        this.finishes.set(index, geminiFinish(choice.finish_reason));
        parts.push(...this.takeCalls(index));
      }
      if (parts.length > 0) out += this.event([{ content: { role: 'model', parts }, index }]);
    }
    return out;
  }

  end(usage: UpstreamUsage | undefined): string {
    const indexes = new Set([...this.finishes.keys(), ...this.calls.keys()]);
    if (indexes.size === 0) indexes.add(0);
    const candidates = [...indexes]
      .sort((a, b) => a - b)
      .map((index) => {
        const calls = this.takeCalls(index); // a stream that never finished still owes its calls
        return {
          content: { role: 'model', parts: calls.length > 0 ? calls : [{ text: '' }] },
          finishReason: this.finishes.get(index) ?? 'STOP',
          index,
        };
      });
    return this.event(candidates, usage && usageMetadata(usage));
  }

  private collect(choice: number, delta: JsonObject): void {
    const calls = this.calls.get(choice) ?? new Map<number, PendingCall>();
    this.calls.set(choice, calls);
    const index = numberOf(delta.index) ?? calls.size;
    const call = calls.get(index) ?? { name: '', arguments: '' };
    calls.set(index, call);
    const fn = objectOf(delta.function);
    call.id ??= stringOf(delta.id);
    call.name += stringOf(fn?.name) ?? '';
    call.arguments += stringOf(fn?.arguments) ?? '';
    call.signature ??= stringOf(objectOf(objectOf(delta.extra_content)?.google)?.thought_signature);
  }

  private takeCalls(choice: number): JsonObject[] {
    const calls = this.calls.get(choice);
    this.calls.delete(choice);
    if (!calls) return [];
    return [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) =>
        functionCallPart({
          function: { name: call.name, arguments: call.arguments },
          extra_content: call.signature
            ? { google: { thought_signature: call.signature } }
            : undefined,
        }),
      );
  }

  private event(candidates: JsonObject[], metadata?: JsonObject): string {
    const response = defined({
      candidates,
      usageMetadata: metadata,
      modelVersion: this.ctx.model,
      responseId: this.ctx.id,
    });
    return `data: ${JSON.stringify(response)}\r\n\r\n`;
  }
}
