import { describe, expect, it } from 'vitest';
import { ceilingNotes } from './ceiling-notes';
import { parseOther } from './log-other';

const notesOf = (other: Record<string, unknown>) => ceilingNotes(parseOther(JSON.stringify(other)));

describe('ceilingNotes', () => {
  it('says nothing for a row without ceiling fields', () => {
    expect(notesOf({ model_ratio: 1, group_ratio: 1 })).toEqual([]);
    expect(ceilingNotes(parseOther(''))).toEqual([]);
  });

  it('reads every ceiling fact, in reading order', () => {
    expect(
      notesOf({
        stream_cut: true,
        ceiling_ignored: true,
        overrun: 5_000,
        lowered_by: 'token_budget',
        lowered_ceiling: 512,
      }),
    ).toEqual([
      { kind: 'lowered', tokens: 512, limit: 'token_budget' },
      { kind: 'overrun', quota: 5_000 },
      { kind: 'ignored' },
      { kind: 'cut' },
    ]);
  });

  it('keeps a lowered ceiling whose limit it does not know, without naming one', () => {
    expect(notesOf({ lowered_ceiling: 0, lowered_by: 'moon_phase' })).toEqual([
      { kind: 'lowered', tokens: 0, limit: null },
    ]);
    expect(notesOf({ lowered_ceiling: 64 })).toEqual([
      { kind: 'lowered', tokens: 64, limit: null },
    ]);
  });

  it('ignores values of the wrong type or sign', () => {
    expect(
      notesOf({
        lowered_ceiling: '512',
        overrun: -3,
        ceiling_ignored: 'yes',
        stream_cut: 1,
      }),
    ).toEqual([]);
    expect(notesOf({ overrun: 0 })).toEqual([]);
  });
});
