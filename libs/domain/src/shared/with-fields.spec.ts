import { withFields } from './with-fields';

describe('withFields', () => {
  it('copies the base with the fields set over it, leaving the base as it was', () => {
    const base = { a: 1, b: 'two', c: [3] };
    const copy = withFields(base, { b: 'deux', d: true });
    expect(copy).toEqual({ a: 1, b: 'deux', c: [3], d: true });
    expect(Object.keys(copy)).toEqual(['a', 'b', 'c', 'd']);
    expect(base).toEqual({ a: 1, b: 'two', c: [3] });
    expect(copy).not.toBe(base);
  });

  it('keeps a parsed `__proto__` key as an own field instead of making it the prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"admin": true}, "model": "gpt"}') as object;
    const copy = withFields(parsed, { model: 'claude' }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.admin).toBeUndefined();
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(copy.model).toBe('claude');
  });

  it('copies a `__proto__` key of the fields as an own field too', () => {
    const override = JSON.parse('{"__proto__": {"admin": true}, "temperature": 0}') as object;
    const copy = withFields({ model: 'gpt' }, override) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.admin).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"model":"gpt","__proto__":{"admin":true},"temperature":0}');
  });

  it('copies own symbol keys, as a spread does', () => {
    const tag = Symbol('tag');
    const copy = withFields({ [tag]: 1, a: 1 }, { a: 2 });
    expect(copy[tag]).toBe(1);
    expect(copy.a).toBe(2);
  });
});
