/**
 * OpenAI's JSON mode (`response_format` json_object / json_schema) for Claude, whose Messages API
 * has no such field: an instruction appended to the system prompt, and `{` prefilled as the
 * assistant's turn where Anthropic accepts a prefill. Not a forced tool: that would conflict with
 * thinking and with the client's own tools, and change the finish reason. docs/providers.md
 * ("JSON mode on Anthropic").
 */
import { withFields } from '@tollgate/domain';
import type { JsonObject } from '../../openai/request-body';
import { isObject, objects } from '../json-parts';

/** What the assistant's turn is prefilled with; the answer continues after it. */
export const JSON_PREFILL = '{';

const JSON_ONLY =
  'Answer with one JSON object only: no prose before or after it, no code fences, no comments.';

/** Claude 4.6 was the first generation to refuse a prefilled assistant turn (400). */
const FIRST_WITHOUT_PREFILL = { major: 4, minor: 6 };
/**
 * A Claude model's generation in its name: `claude-3-5-sonnet-…`, `claude-sonnet-4-5`,
 * `claude-opus-4-20250514` (a date, not a minor), `claude-2.1`, Vertex's `claude-sonnet-4@…`.
 */
const CLAUDE_VERSION = /claude-(?:(?:opus|sonnet|haiku|instant)-)?(\d+)(?:[-.](\d{1,2})(?!\d))?/;

/** A Messages body with the JSON instruction and, when it was prefilled, the answer's prefix. */
export interface ClaudeJsonMode {
  readonly body: JsonObject;
  /** The prefill the upstream's answer continues: the converted answer starts with it again. */
  readonly answerPrefix?: string;
}

/** The system instruction `response_format` asks for; undefined for text, absent or unknown shapes. */
export function jsonInstruction(format: unknown): string | undefined {
  if (!isObject(format)) return undefined;
  if (format.type === 'json_object') return JSON_ONLY;
  if (format.type !== 'json_schema' || !isObject(format.json_schema)) return undefined;
  const { name, schema } = format.json_schema;
  if (!isObject(schema)) return JSON_ONLY;
  const named = typeof name === 'string' && name !== '' ? ` (named "${name}")` : '';
  return `${JSON_ONLY} It must match this JSON schema${named}: ${JSON.stringify(schema)}`;
}

/** Whether `model` is of a generation that still takes a prefill (an unknown name: no). */
export function acceptsPrefill(model: string): boolean {
  const match = CLAUDE_VERSION.exec(model);
  if (!match) return false;
  const major = Number(match[1]);
  const minor = match[2] === undefined ? 0 : Number(match[2]);
  const first = FIRST_WITHOUT_PREFILL;
  return major < first.major || (major === first.major && minor < first.minor);
}

/**
 * Anthropic refuses a prefill with thinking on (a final assistant turn must then start with a
 * thinking block); a forced tool answers with the tool, not text; a conversation already ending
 * in the assistant's turn is the client's own prefill.
 */
function mayPrefill(body: JsonObject): boolean {
  const thinking = isObject(body.thinking) ? body.thinking.type : undefined;
  if (thinking !== undefined && thinking !== 'disabled') return false;
  const choice = isObject(body.tool_choice) ? body.tool_choice.type : undefined;
  if (choice === 'any' || choice === 'tool') return false;
  const messages = objects(body.messages);
  if (messages[messages.length - 1]?.role !== 'user') return false;
  return acceptsPrefill(typeof body.model === 'string' ? body.model : '');
}

/**
 * The final Messages body (thinking already decided) with the JSON mode `format` asks for; the
 * same body when it asks for none. The client's own system text stays first.
 */
export function withJsonMode(body: JsonObject, format: unknown): ClaudeJsonMode {
  const instruction = jsonInstruction(format);
  if (instruction === undefined) return { body };
  const out: JsonObject = withFields(body, {
    system: [...objects(body.system), { type: 'text', text: instruction }],
  });
  if (!mayPrefill(body)) return { body: out };
  out.messages = [
    ...objects(body.messages),
    { role: 'assistant', content: [{ type: 'text', text: JSON_PREFILL }] },
  ];
  return { body: out, answerPrefix: JSON_PREFILL };
}
