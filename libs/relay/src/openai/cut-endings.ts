/**
 * How a stream cut at its reservation ends, in the protocol the client reads (the bytes before the
 * cut passed as the upstream sent them): the answer stops as if the output ceiling was reached.
 */
import type { IngressKind } from '../providers/registry';

export interface CutContext {
  /** The answer's id as the gateway names it (`chatcmpl-<request id>`). */
  readonly id: string;
  readonly model: string;
  /** Seconds since the epoch. */
  readonly created: number;
}

/** The stream protocols a cut can end: OpenAI's three text endpoints and the native ones. */
export type CutWire = 'chat' | 'completions' | 'responses' | IngressKind;

const sse = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
const named = (name: string, payload: unknown) =>
  `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;

/**
 * The closing events. `openBlocks`: Anthropic content blocks started and not stopped (see
 * AnthropicBlocks); `outputTokens`: what was delivered, as the message_delta reports it.
 */
export function cutEnding(
  wire: CutWire,
  ctx: CutContext,
  outputTokens: number,
  openBlocks: readonly number[] = [],
): string {
  switch (wire) {
    case 'chat':
      return (
        sse({
          id: ctx.id,
          object: 'chat.completion.chunk',
          created: ctx.created,
          model: ctx.model,
          choices: [{ index: 0, delta: {}, finish_reason: 'length' }],
        }) + 'data: [DONE]\n\n'
      );
    case 'completions':
      return (
        sse({
          id: ctx.id,
          object: 'text_completion',
          created: ctx.created,
          model: ctx.model,
          choices: [{ index: 0, text: '', finish_reason: 'length', logprobs: null }],
        }) + 'data: [DONE]\n\n'
      );
    case 'responses':
      return named('response.incomplete', {
        type: 'response.incomplete',
        response: {
          id: ctx.id,
          object: 'response',
          created_at: ctx.created,
          model: ctx.model,
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
        },
      });
    case 'anthropic':
      return (
        openBlocks
          .map((index) => named('content_block_stop', { type: 'content_block_stop', index }))
          .join('') +
        named('message_delta', {
          type: 'message_delta',
          delta: { stop_reason: 'max_tokens', stop_sequence: null },
          usage: { output_tokens: outputTokens },
        }) +
        named('message_stop', { type: 'message_stop' })
      );
    case 'gemini':
      return sse({
        candidates: [
          {
            content: { role: 'model', parts: [{ text: '' }] },
            finishReason: 'MAX_TOKENS',
            index: 0,
          },
        ],
        modelVersion: ctx.model,
      });
  }
}

const BLOCK_EVENT = Buffer.from('content_block_st');

/** Anthropic content blocks started and not yet stopped, from the events a stream delivered. */
export class AnthropicBlocks {
  private readonly open = new Set<number>();

  /** `bytes`: whole SSE events as delivered (lines cut at a chunk's end are skipped). */
  observe(bytes: Buffer): void {
    if (bytes.indexOf(BLOCK_EVENT) === -1) return;
    for (const line of bytes.toString('utf8').split('\n')) {
      if (!line.startsWith('data:') || !line.includes('content_block_st')) continue;
      try {
        const parsed = JSON.parse(line.slice(5)) as { type?: unknown; index?: unknown };
        if (typeof parsed.index !== 'number') continue;
        if (parsed.type === 'content_block_start') this.open.add(parsed.index);
        else if (parsed.type === 'content_block_stop') this.open.delete(parsed.index);
      } catch {
        // not a whole JSON line: not a block event this reader can follow
      }
    }
  }

  get unclosed(): number[] {
    return [...this.open];
  }
}
