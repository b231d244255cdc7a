import { SensitiveSseFilter, SensitiveStreamGuard } from './output-guard';
import { promptTexts, uploadsOf } from './prompt-text';
import { SensitiveMatcher } from './sensitive-matcher';

describe('SensitiveMatcher (Aho–Corasick)', () => {
  it('has no matcher for an empty list; blank lines and duplicates are ignored', () => {
    expect(SensitiveMatcher.of('')).toBeUndefined();
    expect(SensitiveMatcher.of('\n  \n')).toBeUndefined();
    expect(SensitiveMatcher.of(' Foo \nfoo\n\nbar')!.words).toEqual(['foo', 'bar']);
  });

  it('finds words case-insensitively, overlapping ones and ones inside others', () => {
    const m = SensitiveMatcher.of(['he', 'she', 'his', 'hers', 'test_sensitive', '敏感词'])!;
    expect(m.all('uSHErs')).toEqual(['she', 'he', 'hers']);
    expect(m.first('a TEST_Sensitive b')).toBe('test_sensitive');
    expect(m.first('这里有敏感词吗')).toBe('敏感词');
    expect(m.first('nothing to see')).toBeUndefined();
    expect(m.all('ahishers')).toEqual(['his', 'she', 'he', 'hers']);
  });

  it('follows fail links (a prefix that fails into another word)', () => {
    const m = SensitiveMatcher.of(['abcd', 'bce'])!;
    expect(m.first('abce')).toBe('bce');
    expect(m.first('abcbcd')).toBeUndefined();
  });

  it('a scanner finds a word split over pieces', () => {
    const s = SensitiveMatcher.of(['test_sensitive'])!.scanner();
    expect(s.feed('hello tes')).toBeUndefined();
    expect(s.feed('t_sens')).toBeUndefined();
    expect(s.feed('itive world')).toBe('test_sensitive');
    const r = SensitiveMatcher.of(['ab'])!.scanner();
    r.feed('a');
    r.reset();
    expect(r.feed('b')).toBeUndefined();
  });

  it('scans a long text with many words in one pass (linear time)', () => {
    const words = Array.from({ length: 2000 }, (_, i) => `word${i}x`);
    const m = SensitiveMatcher.of(words)!;
    const text = 'lorem ipsum '.repeat(100_000) + 'WORD1999X';
    const started = Date.now();
    expect(m.first(text)).toBe('word1999x');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('SensitiveStreamGuard', () => {
  const m = SensitiveMatcher.of(['bad'])!;

  it('passes units through with no queue; a hit stops everything after it', () => {
    const g = new SensitiveStreamGuard<string>(m, 0);
    expect(g.push('1', 'ok ')).toEqual(['1']);
    expect(g.push('2', 'b')).toEqual(['2']);
    expect(g.push('3', 'ad!')).toEqual([]);
    expect(g.hit).toBe('bad');
    expect(g.push('4', 'fine')).toEqual([]);
    expect(g.flush()).toEqual([]);
  });

  it('holds StreamCacheQueueLength units: a word inside the window never goes out', () => {
    const g = new SensitiveStreamGuard<string>(m, 2);
    expect(g.push('1', 'x')).toEqual([]);
    expect(g.push('2', 'b')).toEqual([]);
    expect(g.push('3', 'y')).toEqual(['1']);
    const clean = new SensitiveStreamGuard<string>(m, 2);
    expect(clean.push('1', 'x')).toEqual([]);
    expect(clean.push('2', 'b')).toEqual([]);
    expect(clean.push('3', 'ad')).toEqual([]); // '2' (the word's first piece) is dropped too
    expect(clean.hit).toBe('bad');
    const end = new SensitiveStreamGuard<string>(m, 5);
    end.push('1', 'a');
    end.push('2', 'b');
    expect(end.flush()).toEqual(['1', '2']);
  });
});

describe('SensitiveSseFilter', () => {
  const chunk = (content: string) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

  it('passes clean events whole, even when the bytes split events and characters', () => {
    const f = new SensitiveSseFilter(SensitiveMatcher.of(['bad'])!, 0);
    const bytes = Buffer.from(chunk('你好') + chunk(' world') + 'data: [DONE]\n\n');
    let out = '';
    for (let i = 0; i < bytes.length; i += 7) out += f.push(bytes.subarray(i, i + 7));
    out += f.end();
    expect(out).toBe(bytes.toString('utf8'));
  });

  it('stops at the event that completes a word, with the held events dropped', () => {
    const f = new SensitiveSseFilter(SensitiveMatcher.of(['test_sensitive'])!, 1);
    let out = f.push(Buffer.from(chunk('hello ') + chunk('test_')));
    expect(out).toBe(chunk('hello '));
    out = f.push(Buffer.from(chunk('sensitive') + chunk('more')));
    expect(out).toBe('');
    expect(f.hit).toBe('test_sensitive');
    expect(f.end()).toBe('');
  });
});

describe('promptTexts / uploadsOf', () => {
  it('reads message texts (parts apart, images skipped) and the input fields', () => {
    const chat = {
      messages: [
        { role: 'system', content: 'be nice' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,QkFE' } },
          ],
        },
      ],
    };
    expect(promptTexts('chat', chat)).toEqual(['be nice', 'look']);
    expect(promptTexts('completions', { prompt: ['a', 'b'] })).toEqual(['a', 'b']);
    expect(promptTexts('embeddings', { input: 'x' })).toEqual(['x']);
    expect(promptTexts('imagesGenerations', { prompt: 'cat' })).toEqual(['cat']);
    expect(promptTexts('audioSpeech', { input: 'say' })).toEqual(['say']);
    expect(promptTexts('rerank', { query: 'q' })).toEqual([]);
    expect(uploadsOf('chat', chat)).toEqual({ images: true, files: false });
    expect(
      uploadsOf('chat', {
        messages: [{ role: 'user', content: [{ type: 'file', file: { file_data: 'x' } }] }],
      }),
    ).toEqual({ images: false, files: true });
    expect(uploadsOf('chat', { messages: [{ role: 'user', content: 'hi' }] })).toEqual({
      images: false,
      files: false,
    });
  });
});
