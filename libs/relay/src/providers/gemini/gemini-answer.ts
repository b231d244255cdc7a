/**
 * Gemini's GenerateContentResponse read in OpenAI terms: candidates as choices, finish reasons,
 * usageMetadata as usage, a blocked prompt as a failure. Shared by the JSON answer and the stream.
 */
import type { ConvertContext, ConvertedAnswer, ConvertedFailure } from '../chat-adaptor';
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import { count, defined, objectOf, objects, stringOf } from '../json-parts';
import { chatChoice, chatCompletion } from '../openai-chunks';

const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
]);

/**
 * OpenAI's finish_reason for a candidate's; undefined while the candidate is still going. Calls
 * turn a normal stop into `tool_calls`; the rest (OTHER, LANGUAGE, MALFORMED_FUNCTION_CALL…) stop.
 */
export function finishReason(reason: unknown, hasCalls: boolean): string | undefined {
  if (typeof reason !== 'string' || reason === '' || reason === 'FINISH_REASON_UNSPECIFIED') {
    return undefined;
  }
  if (reason === 'MAX_TOKENS') return 'length';
  if (FILTERED.has(reason)) return 'content_filter';
  return hasCalls ? 'tool_calls' : 'stop';
}

/**
 * usageMetadata as usage: the prompt count already holds the cached tokens; tool-use prompt tokens
 * (grounding results fed back) are input too; thoughts are billed as completion.
 */
export function usageOfMetadata(metadata: unknown): UpstreamUsage | undefined {
  const m = objectOf(metadata);
  if (!m) return undefined;
  const prompt = count(m.promptTokenCount) + count(m.toolUsePromptTokenCount);
  const thoughts = count(m.thoughtsTokenCount);
  const completion = count(m.candidatesTokenCount) + thoughts;
  if (prompt === 0 && completion === 0) return undefined;
  return {
    promptTokens: prompt,
    completionTokens: completion,
    cachedTokens: count(m.cachedContentTokenCount),
    ...(thoughts > 0 ? { reasoningTokens: thoughts } : {}),
  };
}

/** A prompt Gemini refused to answer (`promptFeedback.blockReason`, no candidates). */
export function blockedPrompt(response: JsonObject): ConvertedFailure | undefined {
  const feedback = objectOf(response.promptFeedback);
  const reason = stringOf(feedback?.blockReason);
  if (!reason || objects(response.candidates).length > 0) return undefined;
  const detail = stringOf(feedback?.blockReasonMessage);
  return {
    status: 400,
    info: {
      message: `Gemini blocked the prompt (block reason: ${reason})${detail ? `: ${detail}` : ''}`,
      type: 'invalid_request_error',
      code: 'content_filter',
    },
  };
}

/** A candidate's parts read apart: answer text, thought text, function calls. */
export interface CandidateParts {
  readonly text: string;
  readonly reasoning: string;
  readonly toolCalls: JsonObject[];
}

/** `firstCall` numbers the calls (`call_<n>`) across a stream's events. */
export function readParts(candidate: JsonObject, firstCall = 0): CandidateParts {
  let text = '';
  let reasoning = '';
  const toolCalls: JsonObject[] = [];
  for (const part of objects(objectOf(candidate.content)?.parts)) {
    const call = objectOf(part.functionCall);
    if (call) toolCalls.push(toolCall(call, firstCall + toolCalls.length, part.thoughtSignature));
    else if (typeof part.text === 'string') {
      if (part.thought === true) reasoning += part.text;
      else text += part.text;
    }
  }
  return { text, reasoning, toolCalls };
}

/**
 * An OpenAI tool call; the thought signature rides along the way Google's own OpenAI-compatible
 * endpoint carries it (`extra_content.google.thought_signature`), so a replay can hand it back.
 */
function toolCall(call: JsonObject, n: number, signature: unknown): JsonObject {
  return defined({
    id: `call_${n}`,
    type: 'function',
    function: { name: stringOf(call.name) ?? '', arguments: JSON.stringify(call.args ?? {}) },
    extra_content:
      typeof signature === 'string' ? { google: { thought_signature: signature } } : undefined,
  });
}

export function geminiChatAnswer(provider: JsonObject, ctx: ConvertContext): ConvertedAnswer {
  const blocked = blockedPrompt(provider);
  if (blocked) return { ok: false, failure: blocked };
  const candidates = objects(provider.candidates);
  if (candidates.length === 0) {
    return {
      ok: false,
      failure: {
        status: 502,
        info: { message: 'Gemini answered no candidates', type: 'upstream_error', code: '' },
      },
    };
  }
  const usage = usageOfMetadata(provider.usageMetadata);
  const choices = candidates.map((candidate, position) => {
    const { text, reasoning, toolCalls } = readParts(candidate);
    const message = defined({
      role: 'assistant',
      content: text === '' && toolCalls.length > 0 ? null : text,
      reasoning_content: reasoning === '' ? undefined : reasoning,
      tool_calls: toolCalls.length > 0 ? toolCalls : undefined,
    });
    const finish = finishReason(candidate.finishReason, toolCalls.length > 0) ?? 'stop';
    const index = typeof candidate.index === 'number' ? candidate.index : position;
    return chatChoice(message, finish, index);
  });
  return { ok: true, body: chatCompletion(ctx, choices, usage), usage };
}

/**
 * batchEmbedContents' `embeddings[].values` as an OpenAI embeddings list. Gemini reports no token
 * count for embeddings: usage stays undefined and the gateway counts the input itself.
 */
export function geminiEmbedAnswer(provider: JsonObject, ctx: ConvertContext): ConvertedAnswer {
  const single = objectOf(provider.embedding); // embedContent answers one
  const embeddings = single ? [single] : objects(provider.embeddings);
  const data = embeddings.map((e, index) => ({
    object: 'embedding',
    index,
    embedding: Array.isArray(e.values) ? e.values : [],
  }));
  return { ok: true, body: { object: 'list', data, model: ctx.model }, usage: undefined };
}
