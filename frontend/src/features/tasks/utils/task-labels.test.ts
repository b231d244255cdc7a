import { describe, expect, it } from 'vitest';
import { audioClips, prettyJson, progressPercent } from './task-labels';

describe('task log helpers', () => {
  it('reads the progress percentage, 0 when unusable, clamped', () => {
    expect(progressPercent('45%')).toBe(45);
    expect(progressPercent('100%')).toBe(100);
    expect(progressPercent('')).toBe(0);
    expect(progressPercent('n/a')).toBe(0);
    expect(progressPercent('150%')).toBe(100);
  });

  it('finds the playable clips in an array or its JSON text', () => {
    const clips = [
      { id: 'a', title: 'A', audio_url: 'https://x/a.mp3' },
      { id: 'b', title: 'B', audio_url: '' },
      { title: 'C', audio_url: 'https://x/c.mp3' },
      null,
      'junk',
    ];
    const expected = [
      { id: 'a', title: 'A', audio_url: 'https://x/a.mp3' },
      { id: '2', title: 'C', audio_url: 'https://x/c.mp3' },
    ];
    expect(audioClips(clips)).toEqual(expected);
    expect(audioClips(JSON.stringify(clips))).toEqual(expected);
    expect(audioClips('not json')).toEqual([]);
    expect(audioClips(null)).toEqual([]);
    expect(audioClips({ clips })).toEqual([]);
  });

  it('pretty-prints a row, its JSON-text data as structure', () => {
    const text = prettyJson({ id: 1, data: '[{"id":"a"}]' });
    expect(JSON.parse(text)).toEqual({ id: 1, data: [{ id: 'a' }] });
    expect(text).toContain('\n  "id": 1');
    expect(JSON.parse(prettyJson({ id: 2, data: 'plain' }))).toEqual({ id: 2, data: 'plain' });
  });
});
