/**
 * The byte-level work of the scrubber: every occurrence of a form replaced by the mask, and the
 * end of a text that is the start of a form (a secret cut by a chunk boundary or a length limit).
 * Buffer.indexOf per form, no copy when nothing matches; the end is checked in one pass over its
 * last bytes against a table of the forms' first bytes.
 */
import { MIN_SECRET_LENGTH } from './secret-forms';

/** What a masked secret reads as. */
export const SECRET_MASK = '***';
const MASK = Buffer.from(SECRET_MASK);

export class FormSearch {
  /** Whether a byte begins some form. */
  private readonly firstBytes = new Uint8Array(256);
  private readonly longest: number;

  /** `forms`: longest first, so a whole key is masked before one of its parts. */
  constructor(readonly forms: readonly Buffer[]) {
    for (const form of forms) this.firstBytes[form[0]!] = 1;
    this.longest = forms.reduce((max, form) => Math.max(max, form.length), 0);
  }

  /** `data` with every occurrence of every form masked; `data` itself when there is none. */
  mask(data: Buffer): Buffer {
    let out = data;
    for (const form of this.forms) {
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
   * when none. The earliest such start is the longest such end.
   */
  openTailLength(data: Buffer): number {
    const end = data.length;
    for (let at = Math.max(0, end - this.longest + 1); at < end; at += 1) {
      if (this.firstBytes[data[at]!] === 0) continue;
      const tail = end - at;
      for (const form of this.forms) {
        if (form.length <= tail || form[0] !== data[at]) continue;
        let same = 1;
        while (same < tail && data[at + same] === form[same]) same += 1;
        if (same === tail) return tail;
      }
    }
    return 0;
  }

  /**
   * `data` whose end is the beginning of a form, long enough to be a secret, with that end masked:
   * the secret was cut (a length limit, the end of a stream) and its first part must not leak.
   */
  maskCutTail(data: Buffer): Buffer {
    const open = this.openTailLength(data);
    if (open < MIN_SECRET_LENGTH) return data;
    return Buffer.concat([data.subarray(0, data.length - open), MASK]);
  }
}
