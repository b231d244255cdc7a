import type { JsonObject } from '../../openai/request-body';
import { BEDROCK_ADAPTOR } from '../bedrock/bedrock-adaptor';
import { parseProviderSettings } from '../provider-settings';
import { bodyOf, wireChannel } from '../testing-fixtures';
import { ANTHROPIC_ADAPTOR } from './anthropic-adaptor';
import { acceptsPrefill, JSON_PREFILL, jsonInstruction } from './anthropic-json-mode';

const channel = wireChannel(14, { baseUrl: 'https://api.anthropic.com', key: 'sk-ant' });
const now = new Date(0);
const MODEL = 'claude-3-5-sonnet-20241022';
const ctx = { id: 'chatcmpl-req1', model: MODEL, created: 1_700_000_000 };
const JSON_OBJECT = { type: 'json_object' };
const PREFILL = { role: 'assistant', content: [{ type: 'text', text: JSON_PREFILL }] };
const hub = (extra: JsonObject = {}): JsonObject => ({
  model: MODEL,
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Colour of the sky?' },
  ],
  ...extra,
});

function requestOf(openai: JsonObject, model = MODEL, settings?: Record<string, string>) {
  const rctx = settings ? { settings: parseProviderSettings(settings) } : undefined;
  const req = ANTHROPIC_ADAPTOR.request('chat', openai, channel, model, false, now, rctx);
  return { req, body: bodyOf(req.body) };
}

const lastMessage = (body: JsonObject): unknown => (body.messages as JsonObject[]).at(-1);

describe('Anthropic adaptor: OpenAI JSON mode (response_format)', () => {
  it('json_object: the instruction after the client’s system text, and `{` prefilled', () => {
    const { req, body } = requestOf(hub({ response_format: JSON_OBJECT }));
    expect(body.system).toEqual([
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: jsonInstruction(JSON_OBJECT) },
    ]);
    expect(jsonInstruction(JSON_OBJECT)).toMatch(/one JSON object only.*no code fences/);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Colour of the sky?' }] },
      PREFILL,
    ]);
    expect(req.answerPrefix).toBe(JSON_PREFILL);
  });

  it('json_schema: the schema (as JSON) and its name in the instruction', () => {
    const schema = { type: 'object', properties: { colour: { type: 'string' } } };
    const format = { type: 'json_schema', json_schema: { name: 'sky', schema, strict: true } };
    const { body } = requestOf(hub({ response_format: format }));
    const instruction = (body.system as JsonObject[])[1]!.text as string;
    expect(instruction).toContain(JSON.stringify(schema));
    expect(instruction).toContain('"sky"');
    expect(lastMessage(body)).toEqual(PREFILL);
  });

  it('text, absent or another shape: the request as without it', () => {
    const plain = requestOf(hub()).body;
    for (const format of [{ type: 'text' }, { type: 'xml' }, 'json', { type: 'json_schema' }]) {
      const { req, body } = requestOf(hub({ response_format: format }));
      expect(body).toEqual(plain);
      expect(req.answerPrefix).toBeUndefined();
    }
  });

  it('no prefill with thinking (reasoning_effort, the -thinking adapter), a forced tool, or a final assistant turn', () => {
    const cases: Array<[JsonObject, string?, Record<string, string>?]> = [
      [hub({ response_format: JSON_OBJECT, reasoning_effort: 'low', max_tokens: 4000 })],
      [
        hub({ response_format: JSON_OBJECT }),
        'claude-3-7-sonnet-20250219-thinking',
        { 'claude.thinking_adapter_enabled': 'true' },
      ],
      [
        hub({
          response_format: JSON_OBJECT,
          tools: [{ type: 'function', function: { name: 'sky', parameters: { type: 'object' } } }],
          tool_choice: 'required',
        }),
      ],
      [
        hub({
          response_format: JSON_OBJECT,
          messages: [
            { role: 'user', content: 'Colour?' },
            { role: 'assistant', content: '{"colour":' },
          ],
        }),
      ],
      // Claude 4.6 and later refuse any prefill.
      [hub({ response_format: JSON_OBJECT }), 'claude-opus-4-6'],
    ];
    for (const [openai, model, settings] of cases) {
      const { req, body } = requestOf(openai, model, settings);
      expect((body.system as JsonObject[]).at(-1)).toEqual({
        type: 'text',
        text: jsonInstruction(JSON_OBJECT),
      });
      expect(lastMessage(body)).not.toEqual(PREFILL);
      expect(req.answerPrefix).toBeUndefined();
    }
  });

  it('a prefill only for Claude generations before 4.6', () => {
    const accepted = [
      'claude-3-5-sonnet-20241022',
      'claude-3-haiku-20240307',
      'claude-sonnet-4-20250514',
      'claude-opus-4-1-20250805',
      'claude-sonnet-4-5',
      'claude-sonnet-4@20250514',
      'claude-2.1',
      'anthropic.claude-3-5-haiku-20241022-v1:0',
    ];
    const refused = ['claude-opus-4-6', 'claude-sonnet-4-6', 'claude-opus-4-7', 'claude-opus-5'];
    expect(accepted.filter((m) => !acceptsPrefill(m))).toEqual([]);
    expect(refused.filter((m) => acceptsPrefill(m))).toEqual([]);
    expect(acceptsPrefill('my-model')).toBe(false);
  });

  it('Bedrock passes the prefill it sends on to its answer', () => {
    const bedrock = wireChannel(33, { key: 'AKID|secret|us-east-1' });
    const req = BEDROCK_ADAPTOR.request(
      'chat',
      hub({ response_format: JSON_OBJECT }),
      bedrock,
      MODEL,
      false,
      now,
    );
    expect(lastMessage(bodyOf(req.body))).toEqual(PREFILL);
    expect(req.answerPrefix).toBe(JSON_PREFILL);
  });
});

describe('Anthropic adaptor: the answer after a JSON prefill', () => {
  const answer: JsonObject = {
    type: 'message',
    content: [{ type: 'text', text: '"colour":"blue"}' }],
    stop_reason: 'end_turn',
    usage: { input_tokens: 20, output_tokens: 6 },
  };
  const contentOf = (body: JsonObject): unknown =>
    ((body.choices as JsonObject[])[0]!.message as JsonObject).content;

  it('the whole answer’s text starts with the prefill again; usage as reported', () => {
    const converted = ANTHROPIC_ADAPTOR.response('chat', answer, {
      ...ctx,
      answerPrefix: JSON_PREFILL,
    });
    if (!converted.ok) throw new Error('not converted');
    expect(JSON.parse(contentOf(converted.body) as string)).toEqual({ colour: 'blue' });
    expect(converted.usage).toMatchObject({ promptTokens: 20, completionTokens: 6 });
    const plain = ANTHROPIC_ADAPTOR.response('chat', answer, ctx);
    if (!plain.ok) throw new Error('not converted');
    expect(contentOf(plain.body)).toBe('"colour":"blue"}');
  });

  it('a stream’s first text delta starts with the prefill, the next ones do not', () => {
    const events: JsonObject[] = [
      { type: 'message_start', message: { usage: { input_tokens: 20, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '"colour"' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ':"blue"}' } },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 6 } },
    ];
    const textOf = (answerPrefix?: string) => {
      const conv = ANTHROPIC_ADAPTOR.stream({ ...ctx, ...(answerPrefix ? { answerPrefix } : {}) });
      const deltas = events
        .flatMap((e) => conv.event(e))
        .map((c) => ((c.choices as JsonObject[])[0]!.delta as JsonObject).content)
        .filter((content) => typeof content === 'string' && content !== '');
      return { deltas, usage: conv.usage() };
    };
    const prefilled = textOf(JSON_PREFILL);
    expect(prefilled.deltas).toEqual(['{"colour"', ':"blue"}']);
    expect(prefilled.usage).toMatchObject({ promptTokens: 20, completionTokens: 6 });
    expect(textOf().deltas).toEqual(['"colour"', ':"blue"}']);
  });
});
