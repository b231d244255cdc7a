import { runInThisContext } from 'node:vm';
import * as zlib from 'node:zlib';

/** A preset dictionary as the codec uses it: its row id and its bytes. */
export interface PayloadDictionary {
  readonly id: number;
  readonly bytes: Buffer;
}

/** One event's JSON texts, as the caller serialised them and as a read gets them back. */
export interface PayloadTexts {
  readonly metadata: string;
  readonly data: string;
}

export interface PayloadCodec {
  /** The blob for `data` (metadata then holds an empty blob), or undefined when plain text is smaller. */
  encode(dictionary: PayloadDictionary, texts: PayloadTexts): Buffer | undefined;
  decode(blob: Buffer, dictionaryBytes: (id: number) => Buffer): PayloadTexts;
  /** Structure and shared values of `samples` only (see buildDictionary in the source). */
  buildDictionary(samples: readonly PayloadTexts[]): Buffer;
  /** A canonical lowercase UUID as its 16 bytes; any other id as it is. */
  storedEventId(id: string): Buffer | string;
  eventIdOf(stored: Buffer | string): string;
}

/*
 * The codec as JavaScript source, like the writer (sqlite-writer.ts): the writer thread evaluates it
 * to encode, this thread evaluates the same text to decode, so the format has one implementation.
 *
 * A payload blob: FORMAT_DEFLATE, the dictionary's id as a LEB128 varint, then
 * deflateRaw(metadata + '\n' + data) with that preset dictionary (JSON.stringify never writes a raw
 * newline, so the first one splits the two). One stream for both lets deflate refer to the values
 * metadata repeats (a receipt's request id as causationId, its ip).
 */
const PAYLOAD_CODEC_SOURCE = `(function payloadCodec(zlib) {
  const FORMAT_DEFLATE = 1;
  const SEPARATOR = '\\n';
  // Deflate's window: a longer dictionary would only be read from its end.
  const MAX_DICTIONARY_BYTES = 32768;
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const UUID_BYTES = 16;
  // zlib's output buffer (a larger output takes several): a receipt fits in one. The 16 KB default
  // cost more to allocate than inflating a receipt (13 µs vs 5.5 per receipt, deflate 18 vs 14).
  const CHUNK_BYTES = 1024;

  const varint = (n) => {
    const bytes = [];
    while (n >= 0x80) {
      bytes.push((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    bytes.push(n);
    return bytes;
  };

  const encode = (dictionary, texts) => {
    const text = texts.metadata + SEPARATOR + texts.data;
    // The default level: 9 gave receipts no byte less and cost more time.
    const packed = zlib.deflateRawSync(Buffer.from(text), {
      dictionary: dictionary.bytes,
      chunkSize: CHUNK_BYTES,
    });
    const header = [FORMAT_DEFLATE, ...varint(dictionary.id)];
    // Plain text stores both texts without the separator.
    if (header.length + packed.length >= Buffer.byteLength(text) - SEPARATOR.length) return undefined;
    return Buffer.concat([Buffer.from(header), packed]);
  };

  const decode = (blob, dictionaryBytes) => {
    if (blob[0] !== FORMAT_DEFLATE) throw new Error('Unknown event payload format ' + blob[0]);
    let id = 0;
    let scale = 1;
    let at = 1;
    for (;;) {
      const byte = blob[at++];
      id += (byte & 0x7f) * scale;
      scale *= 0x80;
      if (byte < 0x80) break;
    }
    const text = zlib
      .inflateRawSync(blob.subarray(at), { dictionary: dictionaryBytes(id), chunkSize: CHUNK_BYTES })
      .toString();
    const cut = text.indexOf(SEPARATOR);
    return { metadata: text.slice(0, cut), data: text.slice(cut + 1) };
  };

  // The longest prefix that at least \`quorum\` of the strings share ('' if none).
  const sharedPrefix = (strings, quorum) => {
    const sorted = [...strings].sort();
    let best = '';
    for (let i = 0; i + quorum <= sorted.length; i++) {
      const first = sorted[i];
      const last = sorted[i + quorum - 1];
      let length = 0;
      while (length < first.length && first[length] === last[length]) length++;
      if (length > best.length) best = first.slice(0, length);
    }
    return best;
  };

  /*
   * What the samples have in common, shaped like them: every key of every sample (first seen
   * first), arrays element by element; a string or number only when at least \`quorum\` samples
   * hold it, else the prefix that many share ('' / 0 if none). A dictionary outlives the events it
   * was built from (retention deletes those, never it): it must keep nothing of one event alone.
   */
  const common = (values, quorum) => {
    const present = values.filter((v) => v !== undefined);
    const first = present[0];
    if (Array.isArray(first)) {
      const arrays = present.filter(Array.isArray);
      const length = Math.max(...arrays.map((a) => a.length));
      return Array.from({ length }, (_, i) => common(arrays.map((a) => a[i]), quorum));
    }
    if (first !== null && typeof first === 'object') {
      const objects = present.filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v));
      const keys = new Set(objects.flatMap((o) => Object.keys(o)));
      const shaped = {};
      for (const key of keys) shaped[key] = common(objects.map((o) => o[key]), quorum);
      return shaped;
    }
    if (typeof first !== 'string' && typeof first !== 'number') return first;
    const counts = new Map();
    for (const v of present) counts.set(v, (counts.get(v) || 0) + 1);
    for (const [value, count] of counts) if (count >= quorum) return value;
    if (typeof first === 'number') return 0;
    return sharedPrefix(present.filter((v) => typeof v === 'string'), quorum);
  };

  const MIN_QUORUM = 2;
  const buildDictionary = (samples) => {
    const quorum = Math.max(MIN_QUORUM, Math.ceil(samples.length / 2));
    const metadata = common(samples.map((s) => JSON.parse(s.metadata)), quorum);
    const data = common(samples.map((s) => JSON.parse(s.data)), quorum);
    const bytes = Buffer.from(JSON.stringify(metadata) + SEPARATOR + JSON.stringify(data));
    return bytes.subarray(Math.max(0, bytes.length - MAX_DICTIONARY_BYTES));
  };

  const storedEventId = (id) => (UUID.test(id) ? Buffer.from(id.replace(/-/g, ''), 'hex') : id);

  const eventIdOf = (stored) => {
    if (typeof stored === 'string') return stored;
    if (stored.length !== UUID_BYTES) throw new Error('Unknown stored event id of ' + stored.length + ' bytes');
    const hex = stored.toString('hex');
    return hex.slice(0, 8) + '-' + hex.slice(8, 12) + '-' + hex.slice(12, 16) + '-' + hex.slice(16, 20) + '-' + hex.slice(20);
  };

  return { encode, decode, buildDictionary, storedEventId, eventIdOf };
})`;

/** Source of an expression that evaluates to the codec, given `require` in scope (worker code). */
export const PAYLOAD_CODEC_EXPRESSION = `${PAYLOAD_CODEC_SOURCE}(require('node:zlib'))`;

let codec: PayloadCodec | undefined;

/** This thread's instance of the codec. */
export function payloadCodec(): PayloadCodec {
  codec ??= (runInThisContext(PAYLOAD_CODEC_SOURCE) as (z: typeof zlib) => PayloadCodec)(zlib);
  return codec;
}
