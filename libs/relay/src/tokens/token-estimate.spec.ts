import { encode as libraryEncode } from 'gpt-tokenizer';
import {
  countText,
  estimatePromptTokens,
  StreamTokenCounter,
  TOKENIZE_LIMIT,
} from './token-estimate';

describe('token estimates', () => {
  it('counts with a real tokenizer', () => {
    expect(countText('Hello world')).toBe(2);
    expect(countText('')).toBe(0);
  });

  it("counts a special token's text as text, in a prompt and in a stream's pieces", () => {
    const text = 'what is <|endoftext|>? and <|im_start|>';
    const ordinary = libraryEncode(text, { disallowedSpecial: new Set() }).length;
    expect(countText(text)).toBe(ordinary);
    expect(estimatePromptTokens('chat', { messages: [{ role: 'user', content: text }] })).toBe(
      countText(text + '\n') + 3 + 3,
    );
    const counter = new StreamTokenCounter();
    const sum = ['what is <|endo', 'ftext|>? and <|im_', 'start|>'].reduce(
      (total, piece) => total + counter.add(piece),
      0,
    );
    expect(Math.abs(sum - ordinary)).toBeLessThanOrEqual(1);
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

describe('StreamTokenCounter', () => {
  const TEXTS = {
    prose: 'The quick brown fox jumps over the lazy dog, twice; then it rests.\n'.repeat(12),
    chinese: '今天的天气很好，我们去公园散步吧。明天也许会下雨。'.repeat(10),
    code: 'function add(a, b) {\n  return a + b; // 12345 + 678\n}\n'.repeat(10),
  };
  /** Cuts `text` into pieces of 1, 3 and 7 characters in turn, and one longer than the context. */
  const pieces = (text: string): string[] => {
    const out: string[] = [];
    const sizes = [1, 3, 7, 1, 90];
    for (let at = 0, i = 0; at < text.length; i++) {
      const size = sizes[i % sizes.length]!;
      out.push(text.slice(at, at + size));
      at += size;
    }
    return out;
  };

  it.each(Object.entries(TEXTS))("sums its pieces to the whole text's count (%s)", (_, text) => {
    const counter = new StreamTokenCounter();
    const sum = pieces(text).reduce((total, piece) => total + counter.add(piece), 0);
    expect(sum).toBe(countText(text));
  });

  it('sums to the whole count however a text is cut, a character at a time included', () => {
    const text = Object.values(TEXTS).join("\nWe'll SAY it: ʰTʰs don't 12345 ");
    for (const size of [1, 2, 5]) {
      const counter = new StreamTokenCounter();
      let sum = 0;
      for (let at = 0; at < text.length; at += size) sum += counter.add(text.slice(at, at + size));
      expect(sum).toBe(countText(text));
    }
  });

  it('takes back from later pieces what a piece merged away, never answering below 0', () => {
    // `éa` is two tokens, `éal` one: the `l` takes one back, which ` world` then pays.
    expect([countText('éa'), countText('éal')]).toEqual([2, 1]);
    const counter = new StreamTokenCounter();
    const added = ['é', 'a', 'l', ' world', '!'].map((piece) => counter.add(piece));
    expect(added[2]).toBe(0);
    expect(Math.min(...added)).toBeGreaterThanOrEqual(0);
    expect(added.reduce((a, b) => a + b, 0)).toBe(countText('éal world!'));
  });

  it('keeps a bounded tail for an unbroken run of letters, a token or so off', () => {
    const run = '中文'.repeat(200);
    const counter = new StreamTokenCounter();
    let sum = 0;
    for (let at = 0; at < run.length; at += 3) sum += counter.add(run.slice(at, at + 3));
    expect(Math.abs(sum - countText(run))).toBeLessThanOrEqual(countText(run) / 10);
    expect(sum).toBeGreaterThan(0);
  });

  it('counts a piece by what it adds after the text before it, not alone', () => {
    // `lo` is a token alone, but after `hel` the two make one: `hello`.
    expect([countText('hel'), countText('lo'), countText('hello')]).toEqual([1, 1, 1]);
    const counter = new StreamTokenCounter('hel');
    expect(counter.add('lo')).toBe(0);
    expect(counter.add('')).toBe(0);
    expect(counter.add(' world')).toBe(1);
  });

  it('starts after the text delivered before counting began', () => {
    const before = TEXTS.prose.slice(0, 100);
    const rest = TEXTS.prose.slice(100);
    const counter = new StreamTokenCounter(before);
    const sum = pieces(rest).reduce((total, piece) => total + counter.add(piece), 0);
    expect(countText(before) + sum).toBe(countText(TEXTS.prose));
    // Its own count of that text, as countText makes it (bounded from the bytes past the limit).
    const long = 'x'.repeat(TOKENIZE_LIMIT + 1);
    expect([counter.startTokens, new StreamTokenCounter(long).startTokens]).toEqual([
      countText(before),
      countText(long),
    ]);
    expect(new StreamTokenCounter().startTokens).toBe(0);
  });
});

describe('the tokenizer is loaded on the first count', () => {
  it('importing the relay library loads neither gpt-tokenizer nor its ranks; the first count does, once', () => {
    const required = jest.fn();
    const ranksRead = jest.fn();
    jest.isolateModules(() => {
      jest.doMock('gpt-tokenizer/cjs/encodingParams/constants', () => {
        required();
        return jest.requireActual<object>('gpt-tokenizer/cjs/encodingParams/constants');
      });
      jest.doMock('./o200k-ranks', () => {
        const actual = jest.requireActual<typeof import('./o200k-ranks')>('./o200k-ranks');
        return {
          loadO200kRanks: () => {
            ranksRead();
            return actual.loadO200kRanks();
          },
        };
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loading is the point
      const relay = require('../index') as typeof import('../index');
      expect(required).not.toHaveBeenCalled();
      expect(ranksRead).not.toHaveBeenCalled();
      expect(relay.countText('Hello world')).toBe(2);
      expect(relay.estimatePromptTokens('completions', { prompt: 'Hello world' })).toBe(2);
      expect(required).toHaveBeenCalledTimes(1);
      expect(ranksRead).toHaveBeenCalledTimes(1);
    });
  });
});
