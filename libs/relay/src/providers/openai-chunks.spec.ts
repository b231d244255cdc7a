import { chunksOfCompletion, openAiUsage } from './openai-chunks';

const ctx = { id: 'chatcmpl-1', model: 'm', created: 1_700_000_000 };

describe('chunksOfCompletion: a whole answer replayed as a stream', () => {
  it('sends each choice as one delta with its finish reason, tool calls indexed, usage last', () => {
    const usage = { promptTokens: 9, completionTokens: 4, cachedTokens: 0 };
    const chunks = chunksOfCompletion(
      {
        choices: [
          {
            message: {
              role: 'assistant',
              content: 'hi',
              tool_calls: [
                { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
      ctx,
      usage,
    );
    expect(chunks).toEqual([
      {
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: 'm',
        choices: [
          {
            index: 0,
            delta: {
              role: 'assistant',
              content: 'hi',
              tool_calls: [
                { index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } },
              ],
            },
            logprobs: null,
            finish_reason: 'tool_calls',
          },
        ],
      },
      {
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: 'm',
        choices: [],
        usage: openAiUsage(usage),
      },
    ]);
  });

  it('defaults a missing finish reason to stop and sends no usage chunk without usage', () => {
    const chunks = chunksOfCompletion({ choices: [{ message: { content: 'x' } }] }, ctx, undefined);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.choices).toEqual([
      { index: 0, delta: { content: 'x' }, logprobs: null, finish_reason: 'stop' },
    ]);
  });
});
