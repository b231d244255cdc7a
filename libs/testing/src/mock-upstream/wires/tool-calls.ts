/**
 * A model calling a tool, on the Anthropic and Gemini wires (behaviour `toolCall`): asked only
 * when the request offers tools and its last turn is the user's, so a client sending the tool's
 * result back gets the text answer. Anthropic's check that every tool_result answers a tool_use
 * of the turn before is here too.
 */
import { NAMED_SSE_FRAMES, sendJson, SSE_HEADERS, writeStream } from '../mock-kit';
import { anthropicUsage } from './anthropic-messages';
import type { WireCall } from './provider-wire';

type Body = Record<string, unknown>;
const list = (value: unknown): Body[] => (Array.isArray(value) ? (value as Body[]) : []);

/** The tool the mock calls for this request, if any. */
export function toolCallOf(call: WireCall): { name: string; arguments: Body } | undefined {
  const asked = call.behavior.toolCall;
  if (!asked) return undefined;
  const anthropicTools = list(call.body.tools).length > 0;
  const geminiTools = list(call.body.tools).some((t) => Array.isArray(t.functionDeclarations));
  if (!anthropicTools && !geminiTools) return undefined;
  const turns = list(call.body.messages ?? call.body.contents);
  const last = turns[turns.length - 1];
  const parts = list(last?.content ?? last?.parts);
  const answersTool = parts.some((p) => p.type === 'tool_result' || p.functionResponse);
  return answersTool ? undefined : asked;
}

/** What Anthropic refuses of tool results: one whose id no tool_use of the turn before has. */
export function toolResultFault(body: Body): string | undefined {
  const messages = list(body.messages);
  for (const [m, message] of messages.entries()) {
    const results = list(message.content).filter((b) => b.type === 'tool_result');
    if (results.length === 0) continue;
    const before = list(messages[m - 1]?.content);
    const ids = new Set(before.filter((b) => b.type === 'tool_use').map((b) => b.id));
    const stray = results.find((r) => !ids.has(r.tool_use_id));
    if (stray) {
      return `messages.${m}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(stray.tool_use_id)}`;
    }
  }
  return undefined;
}

/** Anthropic's answer calling the tool, as JSON or its stream events. */
export function answerAnthropicToolUse(
  call: WireCall,
  id: string,
  tool: { name: string; arguments: Body },
): void | Promise<void> {
  const usage = anthropicUsage(call.behavior);
  const toolId = `toolu_mock_${call.id}`;
  if (call.body.stream !== true) {
    return sendJson(call.res, 200, {
      id,
      type: 'message',
      role: 'assistant',
      model: call.model,
      content: [{ type: 'tool_use', id: toolId, name: tool.name, input: tool.arguments }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage,
    });
  }
  const head = [
    {
      type: 'message_start',
      message: { id, type: 'message', role: 'assistant', model: call.model, content: [], usage },
    },
    {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: toolId, name: tool.name, input: {} },
    },
  ];
  const args = JSON.stringify(tool.arguments);
  const half = Math.ceil(args.length / 2);
  const frames = [args.slice(0, half), args.slice(half)].map((partial_json) => ({
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'input_json_delta', partial_json },
  }));
  const tail = [
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    },
    { type: 'message_stop' },
  ];
  const json = (events: Body[]) => events.map((e) => JSON.stringify(e));
  return writeStream(
    call.res,
    call.behavior,
    json(head),
    json(frames),
    json(tail),
    NAMED_SSE_FRAMES,
  );
}

/** Gemini's answer calling the tool: one functionCall part (a stream of one chunk). */
export function answerGeminiFunctionCall(
  call: WireCall,
  tool: { name: string; arguments: Body },
  usageMetadata: Body,
): void {
  const body = {
    candidates: [
      {
        content: {
          parts: [{ functionCall: { name: tool.name, args: tool.arguments } }],
          role: 'model',
        },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata,
    modelVersion: call.model,
  };
  if (call.path.endsWith(':generateContent')) return sendJson(call.res, 200, body);
  if (call.query['alt'] !== 'sse') return sendJson(call.res, 200, [body]);
  call.res.writeHead(200, SSE_HEADERS);
  call.res.end(`data: ${JSON.stringify(body)}\r\n\r\n`);
}
