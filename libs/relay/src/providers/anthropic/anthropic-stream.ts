/**
 * Streams between Anthropic's Messages events and OpenAI chat chunks, both ways. Anthropic
 * announces each content block (text, thinking, tool_use) before its deltas and reports usage in
 * message_start (input side) and message_delta (output, cumulative).
 */
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import type { ConvertContext, ConvertedFailure, StreamConverter } from '../chat-adaptor';
import type { StreamEncoder } from '../ingress-codec';
import { count, isObject, objects, text } from '../json-parts';
import { chatChunk, usageChunks } from '../openai-chunks';
import { anthropicErrorInfo, statusOfAnthropicError } from './anthropic-errors';
import {
  anthropicMessageId,
  anthropicUsageObject,
  finishOfStop,
  stopOfFinish,
} from './anthropic-response';

/** Anthropic events → OpenAI chat.completion.chunk objects. */
export class AnthropicStreamConverter implements StreamConverter {
  private input = 0;
  private cacheRead = 0;
  private cacheCreation = 0;
  private output = 0;
  private sawUsage = false;
  /** Content block index → the OpenAI tool_calls index of a tool_use block. */
  private readonly toolIndex = new Map<number, number>();
  private failed: ConvertedFailure | undefined;
  /** The request's prefill, owed before the first text delta (the upstream continues after it). */
  private prefix: string;

  constructor(private readonly ctx: ConvertContext) {
    this.prefix = ctx.answerPrefix ?? '';
  }

  private textChunk(delta: string): JsonObject {
    const content = this.prefix + delta;
    this.prefix = '';
    return this.chunk({ content });
  }

  private chunk(delta: JsonObject, finish: string | null = null): JsonObject {
    return chatChunk(this.ctx, delta, finish);
  }

  private noteUsage(usage: unknown): void {
    if (!isObject(usage)) return;
    // message_delta repeats input counts in newer API versions; a 0 there means "not said".
    if (count(usage.input_tokens) > 0) this.input = count(usage.input_tokens);
    if (count(usage.cache_read_input_tokens) > 0)
      this.cacheRead = count(usage.cache_read_input_tokens);
    if (count(usage.cache_creation_input_tokens) > 0) {
      this.cacheCreation = count(usage.cache_creation_input_tokens);
    }
    if (usage.output_tokens !== undefined) this.output = count(usage.output_tokens);
    this.sawUsage = true;
  }

  event(data: JsonObject, name?: string): JsonObject[] {
    const type = typeof data.type === 'string' ? data.type : name;
    switch (type) {
      case 'message_start': {
        const message = isObject(data.message) ? data.message : {};
        this.noteUsage(message.usage);
        return [this.chunk({ role: 'assistant', content: '' })];
      }
      case 'content_block_start': {
        const block = isObject(data.content_block) ? data.content_block : {};
        if (block.type !== 'tool_use') return [];
        const index = this.toolIndex.size;
        this.toolIndex.set(count(data.index), index);
        return [
          this.chunk({
            tool_calls: [
              {
                index,
                id: text(block.id),
                type: 'function',
                function: { name: text(block.name), arguments: '' },
              },
            ],
          }),
        ];
      }
      case 'content_block_delta': {
        const delta = isObject(data.delta) ? data.delta : {};
        if (delta.type === 'text_delta') return [this.textChunk(text(delta.text))];
        if (delta.type === 'thinking_delta') {
          return [this.chunk({ reasoning_content: text(delta.thinking) })];
        }
        if (delta.type === 'input_json_delta') {
          const index = this.toolIndex.get(count(data.index)) ?? 0;
          return [
            this.chunk({
              tool_calls: [{ index, function: { arguments: text(delta.partial_json) } }],
            }),
          ];
        }
        return [];
      }
      case 'message_delta': {
        this.noteUsage(data.usage);
        const delta = isObject(data.delta) ? data.delta : {};
        const finish = finishOfStop(delta.stop_reason);
        return finish === null ? [] : [this.chunk({}, finish)];
      }
      case 'error': {
        const error = isObject(data.error) ? data.error : {};
        const info = anthropicErrorInfo(error);
        this.failed = { status: statusOfAnthropicError(info.type), info };
        return [];
      }
      default:
        return []; // ping, content_block_stop, message_stop
    }
  }

  end(): JsonObject[] {
    return usageChunks(this.ctx, this.usage());
  }

  usage(): UpstreamUsage | undefined {
    if (!this.sawUsage) return undefined;
    return {
      promptTokens: this.input + this.cacheRead + this.cacheCreation,
      completionTokens: this.output,
      cachedTokens: this.cacheRead,
      cacheCreationTokens: this.cacheCreation,
    };
  }

  failure(): ConvertedFailure | undefined {
    return this.failed;
  }
}

const frame = (event: string, data: JsonObject): string =>
  `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

type OpenBlock = { kind: 'text' | 'thinking' } | { kind: 'tool'; call: number };

/** OpenAI chunks → Anthropic events (for Anthropic clients of other upstreams). */
export class AnthropicStreamEncoder implements StreamEncoder {
  private started = false;
  private block: OpenBlock | undefined;
  private index = -1;
  private finish: unknown = null;

  constructor(private readonly ctx: ConvertContext) {}

  private start(): string {
    if (this.started) return '';
    this.started = true;
    return frame('message_start', {
      type: 'message_start',
      message: {
        id: anthropicMessageId(this.ctx.id),
        type: 'message',
        role: 'assistant',
        model: this.ctx.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // The prompt's count arrives with the upstream's last chunk: message_delta carries it.
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    });
  }

  private close(): string {
    if (!this.block) return '';
    this.block = undefined;
    return frame('content_block_stop', { type: 'content_block_stop', index: this.index });
  }

  private open(block: OpenBlock, contentBlock: JsonObject): string {
    const closed = this.close();
    this.block = block;
    this.index += 1;
    return (
      closed +
      frame('content_block_start', {
        type: 'content_block_start',
        index: this.index,
        content_block: contentBlock,
      })
    );
  }

  private delta(delta: JsonObject): string {
    return frame('content_block_delta', { type: 'content_block_delta', index: this.index, delta });
  }

  chunk(openai: JsonObject): string {
    let out = this.start();
    for (const choice of objects(openai.choices)) {
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) {
        this.finish = choice.finish_reason;
      }
      const delta = isObject(choice.delta) ? choice.delta : {};
      const reasoning = text(delta.reasoning_content);
      if (reasoning !== '') {
        if (this.block?.kind !== 'thinking') {
          out += this.open({ kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' });
        }
        out += this.delta({ type: 'thinking_delta', thinking: reasoning });
      }
      const content = text(delta.content);
      if (content !== '') {
        if (this.block?.kind !== 'text')
          out += this.open({ kind: 'text' }, { type: 'text', text: '' });
        out += this.delta({ type: 'text_delta', text: content });
      }
      for (const call of objects(delta.tool_calls)) {
        const callIndex = count(call.index);
        const fn = isObject(call.function) ? call.function : {};
        if (this.block?.kind !== 'tool' || this.block.call !== callIndex) {
          out += this.open(
            { kind: 'tool', call: callIndex },
            { type: 'tool_use', id: text(call.id), name: text(fn.name), input: {} },
          );
        }
        const args = text(fn.arguments);
        if (args !== '') out += this.delta({ type: 'input_json_delta', partial_json: args });
      }
    }
    return out;
  }

  end(usage: UpstreamUsage | undefined): string {
    return (
      this.start() +
      this.close() +
      frame('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: stopOfFinish(this.finish), stop_sequence: null },
        usage: anthropicUsageObject(usage),
      }) +
      frame('message_stop', { type: 'message_stop' })
    );
  }
}
