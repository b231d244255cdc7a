import { countText, estimatePromptTokens, TOKENIZE_LIMIT } from './token-estimate';

describe('token estimates', () => {
  it('counts with a real tokenizer', () => {
    expect(countText('Hello world')).toBe(2);
    expect(countText('')).toBe(0);
  });

  it('bounds very long text from its size instead of tokenizing it', () => {
    const text = 'a '.repeat(TOKENIZE_LIMIT);
    expect(countText(text)).toBe(Math.ceil(Buffer.byteLength(text) / 2));
  });

  it('chat: message texts plus the framing per message, text parts and images', () => {
    const n = estimatePromptTokens('chat', {
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Hello world' },
            { type: 'image_url', image_url: { url: 'https://x/y.png' } },
          ],
        },
      ],
    });
    // "Be brief.\nHello world\n" + 2 × 3 + 3 + 85
    expect(n).toBe(countText('Be brief.\nHello world\n') + 6 + 3 + 85);
  });

  it('other endpoints count their input or prompt', () => {
    expect(estimatePromptTokens('embeddings', { input: ['Hello', 'world'] })).toBe(
      countText('Hello\nworld'),
    );
    expect(estimatePromptTokens('completions', { prompt: 'Hello world' })).toBe(2);
    expect(estimatePromptTokens('audioTranscriptions', {})).toBe(0);
  });
});

describe('the tokenizer is loaded on the first count', () => {
  it('importing the relay library does not require gpt-tokenizer; the first count does, once', () => {
    const required = jest.fn();
    jest.isolateModules(() => {
      jest.doMock('gpt-tokenizer', () => {
        required();
        return jest.requireActual<object>('gpt-tokenizer');
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loading is the point
      const relay = require('../index') as typeof import('../index');
      expect(required).not.toHaveBeenCalled();
      expect(relay.countText('Hello world')).toBe(2);
      expect(relay.estimatePromptTokens('completions', { prompt: 'Hello world' })).toBe(2);
      expect(required).toHaveBeenCalledTimes(1);
    });
  });
});
