import { describe, expect, it } from 'vitest';
import { isChatModel } from './chat-models';

describe('isChatModel', () => {
  it('offers chat models', () => {
    for (const name of [
      'gpt-4o-mini',
      'claude-3-5-sonnet-20241022',
      'gemini-1.5-pro',
      'o1',
      'deepseek-chat',
      'qwen-max',
    ])
      expect(isChatModel(name)).toBe(true);
  });

  it('leaves out embedding, image, audio, moderation, rerank and task models', () => {
    for (const name of [
      'text-embedding-3-small',
      'bge-m3',
      'dall-e-3',
      'gpt-image-1',
      'whisper-1',
      'tts-1-hd',
      'gpt-4o-audio-preview',
      'gpt-4o-realtime-preview',
      'text-moderation-latest',
      'jina-reranker-v2',
      'mj_imagine',
      'suno_music',
      'flux-pro',
    ])
      expect(isChatModel(name)).toBe(false);
  });
});
