import { withoutEmptyQueryValues, withoutNullFields } from './absent-input';

describe('absent input', () => {
  it('drops null fields at any depth of nested objects, keeping array items as sent', () => {
    expect(
      withoutNullFields({
        a: null,
        b: 1,
        nested: { c: null, d: 'x', deeper: { e: null } },
        list: [null, { f: null, g: 2 }, 3],
      }),
    ).toEqual({ b: 1, nested: { d: 'x', deeper: {} }, list: [null, { g: 2 }, 3] });
    expect(withoutNullFields(null)).toBeNull();
    expect(withoutNullFields('text')).toBe('text');
  });

  it('drops empty query values, whatever prototype the parser gave the object', () => {
    const parsed = Object.assign(Object.create({ parser: true }) as object, {
      p: '',
      page_size: '10',
      channel: '',
      repeated: ['', '1'],
    });
    expect(withoutEmptyQueryValues(parsed)).toEqual({ page_size: '10', repeated: ['', '1'] });
    expect(withoutEmptyQueryValues(undefined)).toBeUndefined();
  });
});
