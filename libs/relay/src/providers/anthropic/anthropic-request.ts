/**
 * Requests between the OpenAI chat wire (the hub) and Anthropic's Messages API, both ways: an
 * OpenAI client's request for an Anthropic channel, and an Anthropic client's request (Claude
 * Code, the Anthropic SDKs) for any other channel.
 */
import type { JsonObject } from '../../openai/request-body';
import {
  contentText,
  dataUrl,
  defined,
  isObject,
  objects,
  parseArguments,
  text,
} from '../json-parts';
import { CLAUDE_DEFAULT_MAX_TOKENS } from '../provider-settings';
import { effortOfThinking, withEffortThinking } from './anthropic-thinking';

/** OpenAI image_url / text parts as Anthropic content blocks. */
function blocksOfContent(content: unknown): JsonObject[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const blocks: JsonObject[] = [];
  for (const part of objects(content)) {
    if (part.type === 'text') blocks.push({ type: 'text', text: text(part.text) });
    else if (part.type === 'image_url') {
      const url = text(isObject(part.image_url) ? part.image_url.url : part.image_url);
      const inline = dataUrl(url);
      blocks.push({
        type: 'image',
        source: inline
          ? { type: 'base64', media_type: inline.mediaType, data: inline.data }
          : { type: 'url', url },
      });
    }
  }
  return blocks;
}

/** Consecutive messages of one role become one (tool results come as several OpenAI messages). */
function pushMessage(messages: JsonObject[], role: string, blocks: JsonObject[]): void {
  if (blocks.length === 0) return;
  const last = messages[messages.length - 1];
  if (last && last.role === role) (last.content as JsonObject[]).push(...blocks);
  else messages.push({ role, content: blocks });
}

function toolChoice(choice: unknown, parallel: unknown): JsonObject | undefined {
  const noParallel = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'auto') return { type: 'auto', ...noParallel };
  if (choice === 'required') return { type: 'any', ...noParallel };
  if (choice === 'none') return { type: 'none' };
  if (isObject(choice) && isObject(choice.function)) {
    return { type: 'tool', name: text(choice.function.name), ...noParallel };
  }
  return parallel === false ? { type: 'auto', ...noParallel } : undefined;
}

/**
 * An OpenAI chat body as the Messages request for `model` (`defaultMaxTokens` without one), its
 * `reasoning_effort` as thinking (`thinkingBudgetRatio`: the share of max_tokens it may take).
 */
export function anthropicRequestOf(
  openai: JsonObject,
  model: string,
  defaultMaxTokens = CLAUDE_DEFAULT_MAX_TOKENS,
  thinkingBudgetRatio?: number,
): JsonObject {
  const system: JsonObject[] = [];
  const messages: JsonObject[] = [];
  for (const message of objects(openai.messages)) {
    const role = text(message.role);
    if (role === 'system' || role === 'developer') {
      system.push(...blocksOfContent(message.content).filter((b) => b.type === 'text'));
    } else if (role === 'user') {
      pushMessage(messages, 'user', blocksOfContent(message.content));
    } else if (role === 'assistant') {
      const blocks = blocksOfContent(message.content);
      if (typeof message.reasoning_content === 'string' && message.reasoning_content !== '') {
        // Without its signature a thinking block is refused; the text still tells the model.
        blocks.unshift({ type: 'text', text: message.reasoning_content });
      }
      for (const call of objects(message.tool_calls)) {
        const fn = isObject(call.function) ? call.function : {};
        blocks.push({
          type: 'tool_use',
          id: text(call.id),
          name: text(fn.name),
          input: parseArguments(fn.arguments),
        });
      }
      pushMessage(messages, 'assistant', blocks);
    } else if (role === 'tool') {
      pushMessage(messages, 'user', [
        {
          type: 'tool_result',
          tool_use_id: text(message.tool_call_id),
          content: contentText(message.content),
        },
      ]);
    }
  }
  const max =
    (typeof openai.max_completion_tokens === 'number' ? openai.max_completion_tokens : undefined) ??
    (typeof openai.max_tokens === 'number' ? openai.max_tokens : undefined);
  const stop =
    typeof openai.stop === 'string'
      ? [openai.stop]
      : Array.isArray(openai.stop)
        ? openai.stop
        : undefined;
  const tools = objects(openai.tools)
    .filter((tool) => tool.type === 'function' && isObject(tool.function))
    .map((tool) => {
      const fn = tool.function as JsonObject;
      return defined({
        name: text(fn.name),
        description: typeof fn.description === 'string' ? fn.description : undefined,
        input_schema: isObject(fn.parameters) ? fn.parameters : { type: 'object', properties: {} },
      });
    });
  const body = defined({
    model,
    max_tokens: max ?? defaultMaxTokens,
    system: system.length > 0 ? system : undefined,
    messages,
    // OpenAI's temperature runs to 2, Anthropic's to 1.
    temperature:
      typeof openai.temperature === 'number' ? Math.min(openai.temperature, 1) : undefined,
    top_p: typeof openai.top_p === 'number' ? openai.top_p : undefined,
    top_k: typeof openai.top_k === 'number' ? openai.top_k : undefined,
    stop_sequences: stop,
    stream: openai.stream === true ? true : undefined,
    tools: tools.length > 0 ? tools : undefined,
    tool_choice:
      tools.length > 0 ? toolChoice(openai.tool_choice, openai.parallel_tool_calls) : undefined,
    metadata: typeof openai.user === 'string' ? { user_id: openai.user } : undefined,
    // Not OpenAI's, but clients that know they reach Claude send it: passed on as it came.
    thinking: isObject(openai.thinking) ? openai.thinking : undefined,
  });
  return withEffortThinking(body, openai.reasoning_effort, thinkingBudgetRatio);
}

/** Anthropic content blocks as OpenAI content parts (text and images). */
function partsOfBlocks(content: unknown): string | JsonObject[] {
  if (typeof content === 'string') return content;
  const parts: JsonObject[] = [];
  for (const block of objects(content)) {
    if (block.type === 'text') parts.push({ type: 'text', text: text(block.text) });
    else if (block.type === 'image' && isObject(block.source)) {
      const source = block.source;
      const url =
        source.type === 'base64'
          ? `data:${text(source.media_type)};base64,${text(source.data)}`
          : text(source.url);
      parts.push({ type: 'image_url', image_url: { url } });
    }
  }
  // A plain text message stays a string: every OpenAI-wire upstream accepts that.
  return parts.length > 0 && parts.every((p) => p.type === 'text')
    ? parts.map((p) => text(p.text)).join('\n')
    : parts;
}

function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return objects(content)
    .map((block) => (block.type === 'text' ? text(block.text) : ''))
    .join('\n');
}

/** An Anthropic client's Messages request as an OpenAI chat body; a string says what is wrong. */
export function openAiRequestOfAnthropic(body: JsonObject): JsonObject | string {
  const model = text(body.model).trim();
  const refusal = missingField(body, model);
  if (refusal) return refusal;
  const tools = openAiToolsOf(body.tools);
  const choice = isObject(body.tool_choice) ? body.tool_choice : undefined;
  const stream = body.stream === true;
  return defined({
    model,
    messages: openAiMessagesOf(body),
    max_tokens: body.max_tokens,
    temperature: typeof body.temperature === 'number' ? body.temperature : undefined,
    top_p: typeof body.top_p === 'number' ? body.top_p : undefined,
    stop: Array.isArray(body.stop_sequences) ? body.stop_sequences : undefined,
    stream: stream ? true : undefined,
    stream_options: stream ? { include_usage: true } : undefined,
    tools: tools.length > 0 ? tools : undefined,
    tool_choice: tools.length > 0 ? openAiToolChoiceOf(choice) : undefined,
    parallel_tool_calls: choice?.disable_parallel_tool_use === true ? false : undefined,
    reasoning_effort: effortOfThinking(body.thinking, body.output_config),
    user:
      isObject(body.metadata) && typeof body.metadata.user_id === 'string'
        ? body.metadata.user_id
        : undefined,
  });
}

/** What Anthropic itself would refuse, in its words; undefined when the request may go on. */
function missingField(body: JsonObject, model: string): string | undefined {
  if (model === '') return 'model: Field required';
  if (!Array.isArray(body.messages)) return 'messages: Field required';
  // Absent: the channel's adaptor fills `claude.default_max_tokens` in (as new-api does).
  if (
    body.max_tokens !== undefined &&
    !(typeof body.max_tokens === 'number' && body.max_tokens > 0)
  ) {
    return 'max_tokens: Input should be greater than or equal to 1';
  }
  return undefined;
}

/** The system prompt first, then each Anthropic message as one or more OpenAI messages. */
function openAiMessagesOf(body: JsonObject): JsonObject[] {
  const messages: JsonObject[] = [];
  const system =
    typeof body.system === 'string'
      ? body.system
      : objects(body.system)
          .map((b) => text(b.text))
          .join('\n');
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const message of objects(body.messages)) {
    const role = text(message.role);
    const blocks = typeof message.content === 'string' ? undefined : objects(message.content);
    if (role === 'user') messages.push(...openAiUserMessagesOf(message, blocks));
    else if (role === 'assistant') messages.push(openAiAssistantMessageOf(message, blocks));
  }
  return messages;
}

/** How a failed tool result (`is_error: true`) reads on a wire without the flag. */
export const TOOL_ERROR_PREFIX = 'Error: ';

/** Tool results first: each is its own OpenAI tool message, answering the assistant's call. */
function openAiUserMessagesOf(message: JsonObject, blocks: JsonObject[] | undefined): JsonObject[] {
  const messages: JsonObject[] = [];
  for (const block of blocks ?? []) {
    if (block.type === 'tool_result') {
      const result = toolResultText(block.content);
      messages.push({
        role: 'tool',
        tool_call_id: text(block.tool_use_id),
        // OpenAI and Gemini tool messages have no failure flag: the text says it instead.
        content: block.is_error === true ? `${TOOL_ERROR_PREFIX}${result}` : result,
      });
    }
  }
  const rest = blocks ? blocks.filter((b) => b.type !== 'tool_result') : message.content;
  const content = partsOfBlocks(rest);
  if (content.length > 0) messages.push({ role: 'user', content });
  return messages;
}

function openAiAssistantMessageOf(
  message: JsonObject,
  blocks: JsonObject[] | undefined,
): JsonObject {
  const textPart = blocks
    ? blocks
        .filter((b) => b.type === 'text')
        .map((b) => text(b.text))
        .join('')
    : text(message.content);
  const toolCalls = (blocks ?? [])
    .filter((b) => b.type === 'tool_use')
    .map((b) => ({
      id: text(b.id),
      type: 'function',
      function: { name: text(b.name), arguments: JSON.stringify(b.input ?? {}) },
    }));
  return defined({
    role: 'assistant',
    content: textPart === '' && toolCalls.length > 0 ? null : textPart,
    tool_calls: toolCalls.length > 0 ? toolCalls : undefined,
  });
}

function openAiToolsOf(tools: unknown): JsonObject[] {
  return (
    objects(tools)
      // Client tools only: Anthropic's server tools (web search, …) mean nothing to another upstream.
      .filter(
        (tool) =>
          typeof tool.name === 'string' && (tool.type === undefined || tool.type === 'custom'),
      )
      .map((tool) => ({
        type: 'function',
        function: defined({
          name: text(tool.name),
          description: typeof tool.description === 'string' ? tool.description : undefined,
          parameters: isObject(tool.input_schema) ? tool.input_schema : undefined,
        }),
      }))
  );
}

function openAiToolChoiceOf(choice: JsonObject | undefined): JsonObject | string | undefined {
  switch (choice?.type) {
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: text(choice.name) } };
    case 'auto':
      return 'auto';
    default:
      return undefined;
  }
}
