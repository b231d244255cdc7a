import { describe, expect, it } from 'vitest';
import { visibleChanges } from './visible-changes';

describe('visibleChanges', () => {
  it('hides empty → empty, unchanged and internal fields, keeps secrets and amounts', () => {
    const shown = visibleChanges([
      { field: 'other', before: null, after: '' },
      { field: 'model_mapping', before: null, after: {} },
      { field: 'allow_ips', before: null, after: [] },
      { field: 'test_time', before: 0, after: 1_700_000_000 },
      { field: 'used_quota', before: null, after: 5 },
      { field: 'name', before: 'a', after: 'a' },
      { field: 'name', before: null, after: 'laptop' },
      { field: 'key', before: null, after: 'changed', secret: true },
      { field: 'quota', before: null, after: null, delta: 500 },
    ]);
    expect(shown.map((change) => change.field)).toEqual(['name', 'key', 'quota']);
  });
});
