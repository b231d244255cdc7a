/** `T` with `U`'s fields in place of its own, for each member of a union `T` in turn. */
export type WithFields<T, U> = T extends unknown ? Omit<T, keyof U> & U : never;

/**
 * `{ ...base, ...fields }`: a copy of `base` with `fields` set over it.
 *
 * Written `{ ...base, key: value }`, the copy gets a hidden class of its own on Node 20's V8: the
 * spread clones `base`'s map without a transition, so each key added after it (in the literal or
 * later) makes a new map and descriptor array. That costs ~1 µs a copy instead of ~0.1, fills old
 * space with maps, and the dead maps keep their young descriptor arrays through scavenges
 * (docs/performance-journal.md, "Spread first, keys after"). `Object.assign` onto a fresh object
 * follows the shared transitions instead. When either side has an own `__proto__` key (a parsed
 * JSON body or a channel's parameter override can), the two are spread: assigning that key would
 * set the copy's prototype instead of copying it.
 */
export function withFields<T extends object>(base: T, fields: Partial<NoInfer<T>>): T;
export function withFields<T extends object, U extends object>(
  base: T,
  fields: U,
): WithFields<T, U>;
export function withFields<T extends object, U extends object>(
  base: T,
  fields: U,
): WithFields<T, U> {
  if (Object.hasOwn(base, '__proto__') || Object.hasOwn(fields, '__proto__'))
    return { ...base, ...fields } as unknown as WithFields<T, U>;
  return Object.assign({}, base, fields) as unknown as WithFields<T, U>;
}
