/** Bounds on a JSON body, checked on the raw text before anything parses or transforms it. */
export interface JsonLimits {
  /** Nesting of objects and arrays. */
  readonly maxDepth: number;
  /** Object members plus array elements, counted over the whole body. */
  readonly maxValues: number;
  /** Longest string (key or value), in raw characters, escapes included. */
  readonly maxStringLength: number;
}

export type JsonProblem = 'too_deep' | 'too_many_values' | 'string_too_long' | 'bad_character';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function hex4(text: string, at: number): number {
  const digits = text.slice(at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(digits) ? parseInt(digits, 16) : -1;
}

/**
 * One pass over the raw text, without recursion or allocation per value, so its cost is linear in
 * the body size whatever the body looks like. It does not validate JSON (JSON.parse does that
 * next); it refuses what would make the later steps expensive or unsafe: deep nesting (recursive
 * transformers overflow the stack), many values (class-transformer is quadratic in the key count),
 * huge strings, NUL and lone surrogates (invalid in stream ids and some drivers).
 */
export function scanJson(text: string, limits: JsonLimits): JsonProblem | null {
  let depth = 0;
  let values = 0;
  let inString = false;
  let stringStart = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === QUOTE) {
        inString = false;
        if (i - stringStart > limits.maxStringLength) return 'string_too_long';
      } else if (c === BACKSLASH) {
        if (text.charCodeAt(i + 1) === 0x75 /* u */) {
          const unit = hex4(text, i + 2);
          if (unit === 0) return 'bad_character';
          if (unit >= 0xdc00 && unit <= 0xdfff) return 'bad_character';
          if (unit >= 0xd800 && unit <= 0xdbff) {
            // A high surrogate must be followed by an escaped low one.
            const next = text.startsWith('\\u', i + 6) ? hex4(text, i + 8) : -1;
            if (next < 0xdc00 || next > 0xdfff) return 'bad_character';
            i += 6;
          }
          i += 5;
        } else {
          i += 1;
        }
      }
      continue;
    }
    switch (c) {
      case QUOTE:
        inString = true;
        stringStart = i + 1;
        break;
      case 0x7b: // {
      case 0x5b: // [
        depth += 1;
        if (depth > limits.maxDepth) return 'too_deep';
        break;
      case 0x7d: // }
      case 0x5d: // ]
        depth -= 1;
        break;
      case 0x3a: // : one per object member
      case 0x2c: // , one per further element or member
        values += 1;
        if (values > limits.maxValues) return 'too_many_values';
        break;
    }
  }
  return null;
}

/** The same character rules for a query-string value (already decoded). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasBadCharacter(value: string): boolean {
  return value.includes('\u0000') || LONE_SURROGATE.test(value);
}
