import { applyUpdate, checkUpdate } from './apply-update';

describe('applyUpdate', () => {
  it('gives the same documents when a dotted path comes back in later updates', () => {
    // The paths' segments are kept between calls: a write or unset must not shorten them.
    const doc: Record<string, unknown> = {};
    applyUpdate(doc, { $set: { 'a.b.c': 1 } }, false);
    applyUpdate(doc, { $unset: { 'a.b.c': '' } }, false);
    applyUpdate(doc, { $inc: { 'a.b.c': 2 }, $max: { 'a.b.d': 5 } }, false);
    applyUpdate(doc, { $set: { 'a.b.c': 3 } }, false);
    expect(doc).toEqual({ a: { b: { c: 3, d: 5 } } });
  });

  it('refuses an invalid path every time, not only the first', () => {
    for (let round = 0; round < 2; round++) {
      expect(() => applyUpdate({}, { $set: { 'a..b': 1 } }, false)).toThrow(/Invalid field path/);
      expect(() => applyUpdate({}, { $set: { 'a.$b': 1 } }, false)).toThrow(/Invalid field path/);
      expect(() => applyUpdate({}, { $set: { 'x.__proto__': 1 } }, false)).toThrow(
        /Invalid field path/,
      );
    }
  });

  it('keeps working past the number of paths it keeps', () => {
    const doc: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i++) applyUpdate(doc, { $inc: { [`m.k${i}`]: 1 } }, false);
    applyUpdate(doc, { $inc: { 'm.k0': 1, 'm.k4999': 1 } }, false);
    const m = doc['m'] as Record<string, number>;
    expect(Object.keys(m)).toHaveLength(5000);
    expect([m['k0'], m['k1'], m['k4999']]).toEqual([2, 1, 2]);
  });
});

describe('applyUpdate of a checked update', () => {
  it('applies what the call that checks applies, for an update checkUpdate has passed', () => {
    const update = { $set: { 'p.q': 'x' }, $inc: { n: 2 }, $setOnInsert: { created: 1 } };
    checkUpdate(update);
    const checked: Record<string, unknown> = { n: 1 };
    const full: Record<string, unknown> = { n: 1 };
    applyUpdate(checked, update, true, { checked: true });
    applyUpdate(full, update, true);
    expect(checked).toEqual({ n: 3, p: { q: 'x' }, created: 1 });
    expect(checked).toEqual(full);
  });
});
