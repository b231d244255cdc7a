/**
 * The byte-level work of the scrubber: every occurrence of a form replaced by the mask, and the
 * end of a text that is the start of a form (a secret cut by a chunk boundary or a length limit).
 * Buffer.indexOf per form: no copy when nothing matches.
 */
import { MIN_SECRET_LENGTH } from './secret-forms';

/** What a masked secret reads as. */
export const SECRET_MASK = '***';
const MASK = Buffer.from(SECRET_MASK);

/** `data` with every occurrence of every form masked; `data` itself when there is none. */
export function maskForms(data: Buffer, forms: readonly Buffer[]): Buffer {
  let out = data;
  for (const form of forms) {
    let at = out.indexOf(form);
    if (at < 0) continue;
    const parts: Buffer[] = [];
    let from = 0;
    while (at >= 0) {
      parts.push(out.subarray(from, at), MASK);
      from = at + form.length;
      at = out.indexOf(form, from);
    }
    parts.push(out.subarray(from));
    out = Buffer.concat(parts);
  }
  return out;
}

/**
 * How many bytes at the end of `data` are the beginning of a form (and not the whole of it): 0
 * when none. Only the positions holding a form's first byte are compared.
 */
export function openTailLength(data: Buffer, forms: readonly Buffer[]): number {
  let longest = 0;
  for (const form of forms) {
    const first = form[0]!;
    const from = Math.max(0, data.length - form.length + 1);
    // The earliest start gives the longest tail: later starts of this form cannot beat it.
    for (let at = data.indexOf(first, from); at >= 0; at = data.indexOf(first, at + 1)) {
      const tail = data.length - at;
      if (tail <= longest) break;
      if (data.subarray(at).equals(form.subarray(0, tail))) {
        longest = tail;
        break;
      }
    }
  }
  return longest;
}

/**
 * `data` whose end is the beginning of a form, long enough to be a secret, with that end masked:
 * the secret was cut (a length limit, the end of a stream) and its first part must not leak.
 */
export function maskCutTail(data: Buffer, forms: readonly Buffer[]): Buffer {
  const open = openTailLength(data, forms);
  if (open < MIN_SECRET_LENGTH) return data;
  return Buffer.concat([data.subarray(0, data.length - open), MASK]);
}
