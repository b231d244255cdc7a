/**
 * OpenAI chat chunks → the Responses API's event sequence: `response.created`, then each output
 * item added, its deltas, its done events, and `response.completed` (or `response.incomplete`)
 * with the whole response and its usage. One item is open at a time, as a Responses model streams.
 */
import { withFields } from '@tollgate/domain';
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import type { ConvertContext } from '../chat-adaptor';
import type { StreamEncoder } from '../ingress-codec';
import { count, isObject, objects, text } from '../json-parts';
import {
  functionCallItem,
  incompleteReason,
  itemIds,
  messageItem,
  outputText,
  reasoningItem,
  responseObject,
} from './responses-answer';

interface Item {
  readonly kind: 'reasoning' | 'message' | 'call';
  readonly id: string;
  readonly outputIndex: number;
  /** The text so far (the arguments, for a function call). */
  text: string;
  readonly callId?: string;
  readonly name?: string;
}

export class ResponsesStreamEncoder implements StreamEncoder {
  private sequence = 0;
  private started = false;
  private open: Item | undefined;
  private readonly done: JsonObject[] = [];
  private readonly calls = new Map<number, Item>();
  private finish: unknown = null;
  private readonly ids: ReturnType<typeof itemIds>;

  constructor(private readonly ctx: ConvertContext) {
    this.ids = itemIds(ctx);
  }

  private event(type: string, data: JsonObject): string {
    const payload = { type, sequence_number: this.sequence++, ...data };
    return `event: ${type}\ndata: ${JSON.stringify(payload)}\n\n`;
  }

  private start(): string {
    if (this.started) return '';
    this.started = true;
    const response = responseObject(this.ctx, [], 'in_progress', undefined);
    return (
      this.event('response.created', { response }) +
      this.event('response.in_progress', { response })
    );
  }

  chunk(openai: JsonObject): string {
    let out = this.start();
    const choice = objects(openai.choices).find((c) => count(c.index) === 0);
    if (!choice) return out;
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) {
      this.finish = choice.finish_reason;
    }
    const delta = isObject(choice.delta) ? choice.delta : {};
    const reasoning = text(delta.reasoning_content);
    if (reasoning !== '') out += this.append('reasoning', reasoning);
    const content = text(delta.content);
    if (content !== '') out += this.append('message', content);
    for (const call of objects(delta.tool_calls)) out += this.callDelta(call);
    return out;
  }

  end(usage: UpstreamUsage | undefined): string {
    let out = this.start() + this.close();
    // A response always has an output: an empty message when the model said nothing.
    if (this.done.length === 0) out += this.append('message', '') + this.close();
    const reason = incompleteReason(this.finish);
    const response = responseObject(
      this.ctx,
      this.done,
      reason ? 'incomplete' : 'completed',
      usage,
      reason,
    );
    return out + this.event(reason ? 'response.incomplete' : 'response.completed', { response });
  }

  /** Reasoning or message text: into the open item of that kind, else a new one. */
  private append(kind: 'reasoning' | 'message', delta: string): string {
    let out = '';
    if (this.open?.kind !== kind) {
      out += this.close();
      out += this.add({
        kind,
        id: kind === 'reasoning' ? this.ids.reasoning : this.ids.message,
        outputIndex: this.done.length,
        text: '',
      });
    }
    const item = this.open as Item;
    item.text += delta;
    const at = { item_id: item.id, output_index: item.outputIndex };
    if (kind === 'reasoning') {
      return (
        out +
        this.event(
          'response.reasoning_summary_text.delta',
          withFields(at, { summary_index: 0, delta }),
        )
      );
    }
    return (
      out +
      this.event(
        'response.output_text.delta',
        withFields(at, { content_index: 0, delta, logprobs: [] }),
      )
    );
  }

  private callDelta(call: JsonObject): string {
    const index = count(call.index);
    const fn = isObject(call.function) ? call.function : {};
    let out = '';
    let item = this.calls.get(index);
    if (!item) {
      out += this.close();
      item = {
        kind: 'call',
        id: this.ids.call(index),
        outputIndex: this.done.length,
        text: '',
        callId: text(call.id),
        name: text(fn.name),
      };
      this.calls.set(index, item);
      out += this.add(item);
    }
    const args = text(fn.arguments);
    if (args === '') return out;
    item.text += args;
    return (
      out +
      this.event('response.function_call_arguments.delta', {
        item_id: item.id,
        output_index: item.outputIndex,
        delta: args,
      })
    );
  }

  private add(item: Item): string {
    this.open = item;
    const at = { item_id: item.id, output_index: item.outputIndex };
    switch (item.kind) {
      case 'reasoning':
        return (
          this.event('response.output_item.added', {
            output_index: item.outputIndex,
            item: reasoningItem(item.id, ''),
          }) +
          this.event(
            'response.reasoning_summary_part.added',
            withFields(at, { summary_index: 0, part: { type: 'summary_text', text: '' } }),
          )
        );
      case 'message':
        return (
          this.event('response.output_item.added', {
            output_index: item.outputIndex,
            item: messageItem(item.id, '', 'in_progress'),
          }) +
          this.event(
            'response.content_part.added',
            withFields(at, { content_index: 0, part: outputText('') }),
          )
        );
      default:
        return this.event('response.output_item.added', {
          output_index: item.outputIndex,
          item: functionCallItem(item.id, this.callOf(item, ''), 'in_progress'),
        });
    }
  }

  /** The done events of the open item; it joins the response's output. */
  private close(): string {
    const item = this.open;
    if (!item) return '';
    this.open = undefined;
    const at = { item_id: item.id, output_index: item.outputIndex };
    let out: string;
    let done: JsonObject;
    if (item.kind === 'reasoning') {
      const part = { type: 'summary_text', text: item.text };
      done = reasoningItem(item.id, item.text);
      out =
        this.event(
          'response.reasoning_summary_text.done',
          withFields(at, { summary_index: 0, text: item.text }),
        ) +
        this.event(
          'response.reasoning_summary_part.done',
          withFields(at, { summary_index: 0, part }),
        );
    } else if (item.kind === 'message') {
      done = messageItem(item.id, item.text);
      out =
        this.event(
          'response.output_text.done',
          withFields(at, { content_index: 0, text: item.text }),
        ) +
        this.event(
          'response.content_part.done',
          withFields(at, { content_index: 0, part: outputText(item.text) }),
        );
    } else {
      done = functionCallItem(item.id, this.callOf(item, item.text));
      out = this.event(
        'response.function_call_arguments.done',
        withFields(at, { arguments: item.text }),
      );
    }
    this.done.push(done);
    return (
      out + this.event('response.output_item.done', { output_index: item.outputIndex, item: done })
    );
  }

  private callOf(item: Item, args: string): { callId: string; name: string; arguments: string } {
    return { callId: item.callId ?? '', name: item.name ?? '', arguments: args };
  }
}
