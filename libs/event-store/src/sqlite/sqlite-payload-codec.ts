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
  /** The same for a 16-byte id read as its lowercase hex (SQLite's `lower(hex(event_id))`). */
  eventIdOfHex(hex: string): string;
  /** Whether this Node lets the codec keep a zlib stream per dictionary (else one per payload). */
  readonly keepsStreams: boolean;
}

/*
 * The codec as JavaScript source, like the writer (sqlite-writer.ts): the writer thread evaluates it
 * to encode, this thread evaluates the same text to decode, so the format has one implementation.
 *
 * A payload blob: FORMAT_DEFLATE, the dictionary's id as a LEB128 varint, then
 * deflateRaw(metadata + '\n' + data) with that preset dictionary (JSON.stringify never writes a raw
 * newline, so the first one splits the two). One stream for both lets deflate refer to the values
 * metadata repeats (a receipt's request id as causationId, its ip).
 *
 * node's one-shot calls (deflateRawSync, inflateRawSync) build a zlib stream per payload and free
 * it: for a receipt that cost more than the compression (15–20 µs of a ~20 µs deflate, 4–5 µs of a
 * ~7 µs inflate). So the codec keeps a stream per dictionary and resets it between payloads (a reset
 * sets the dictionary again), driving the stream's native handle the way node's own one-shot path
 * does. node documents no synchronous call on a kept stream, so the codec checks the handle's shape
 * and tries a dictionary's first stream of each kind on a probe against the one-shot call's bytes;
 * anything it does not expect (no such handle, a failed probe, an error, an output larger than its
 * buffer, input left over) goes through the one-shot call instead, which gives the same bytes or
 * node's own error.
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
  // A kept stream's output buffer (shared: a call copies out of it before returning); a payload whose
  // output is larger takes the one-shot call.
  const KEPT_OUTPUT_BYTES = 65536;
  // Streams kept at once, the oldest dropped first. A writer compresses mostly receipts, and a
  // deflate stream holds ~260 KiB; an inflate stream ~45 KiB, and a rebuild reads every type.
  const KEPT_DEFLATERS = 2;
  const KEPT_INFLATERS = 8;
  const keptOutput = Buffer.allocUnsafe(KEPT_OUTPUT_BYTES);

  // What each new stream is tried on before use: it must give the bytes the one-shot call gives. A
  // Node whose handle behaved otherwise would write damaged payloads into the log.
  const PROBE = Buffer.from('{"probe":true,"n":12345}' + SEPARATOR + '{"text":"probe probe probe"}');

  // A zlib stream of the kind kept for one dictionary, or undefined when it cannot be kept: run(input)
  // gives the output's length in keptOutput, or -1 when the caller must take the one-shot call (the
  // stream is closed then). \`probe\`: try it on PROBE first (a dictionary's first of the kind).
  const keptStream = (kind, dictionary, probe) => {
    const engine = new kind.Stream({ dictionary });
    const handle = engine._handle;
    const state = engine._writeState;
    if (!handle || typeof handle.writeSync !== 'function' || typeof handle.reset !== 'function' ||
        !(state instanceof Uint32Array) || state.length < 2) {
      engine.close();
      return undefined;
    }
    let failed = false;
    // zlib reports an error through this, synchronously; the stream's own handler would destroy it.
    handle.onerror = () => { failed = true; };
    const stream = {
      open: true,
      close() {
        stream.open = false;
        engine.close();
      },
      run(input) {
        try {
          handle.writeSync(zlib.constants.Z_FINISH, input, 0, input.length, keptOutput, 0, KEPT_OUTPUT_BYTES);
        } catch {
          failed = true;
        }
        const outputLeft = state[0];
        const inputLeft = state[1];
        if (failed || inputLeft !== 0 || outputLeft === 0) {
          stream.close();
          return -1;
        }
        handle.reset();
        return KEPT_OUTPUT_BYTES - outputLeft;
      },
    };
    if (!probe) return stream;
    const [input, expected] = kind.probe(dictionary);
    const length = stream.run(input);
    if (length < 0 || !keptOutput.subarray(0, length).equals(expected)) {
      if (stream.open) stream.close();
      return undefined;
    }
    return stream;
  };

  // Up to kind.limit kept streams of one kind, by dictionary: by the dictionary's bytes as an object,
  // not its id, which is only unique within one database (a process may open several). None at all
  // once a stream of this kind could not be kept (no such handle, or the probe failed). A dictionary
  // whose stream passed the probe is not probed again when its stream is made anew (after being
  // dropped for another): with more dictionaries in use than kept streams, that would be every time.
  const keptStreams = (kind) => {
    const byDictionary = new Map();
    const proven = new WeakSet();
    const kept = {
      usable: true,
      get(dictionary) {
        const stream = byDictionary.get(dictionary);
        if (stream && stream.open) return stream;
        byDictionary.delete(dictionary);
        if (!kept.usable) return undefined;
        const made = keptStream(kind, dictionary, !proven.has(dictionary));
        if (!made) {
          kept.usable = false;
          return undefined;
        }
        proven.add(dictionary);
        if (byDictionary.size >= kind.limit) {
          const [oldestKey, oldest] = byDictionary.entries().next().value;
          byDictionary.delete(oldestKey);
          if (oldest.open) oldest.close();
        }
        byDictionary.set(dictionary, made);
        return made;
      },
    };
    return kept;
  };
  // The probe's input for each kind, and the one-shot call's output for it.
  const deflaters = keptStreams({
    Stream: zlib.DeflateRaw,
    limit: KEPT_DEFLATERS,
    probe: (dictionary) => [PROBE, zlib.deflateRawSync(PROBE, { dictionary })],
  });
  const inflaters = keptStreams({
    Stream: zlib.InflateRaw,
    limit: KEPT_INFLATERS,
    probe: (dictionary) => [zlib.deflateRawSync(PROBE, { dictionary }), PROBE],
  });

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
    const input = Buffer.from(texts.metadata + SEPARATOR + texts.data);
    const stream = deflaters.get(dictionary.bytes);
    const kept = stream ? stream.run(input) : -1;
    // The default level: 9 gave receipts no byte less and cost more time.
    const packed = kept >= 0
      ? keptOutput.subarray(0, kept)
      : zlib.deflateRawSync(input, { dictionary: dictionary.bytes, chunkSize: CHUNK_BYTES });
    const header = [FORMAT_DEFLATE, ...varint(dictionary.id)];
    // Plain text stores both texts without the separator.
    if (header.length + packed.length >= input.length - SEPARATOR.length) return undefined;
    const blob = Buffer.allocUnsafe(header.length + packed.length);
    blob.set(header, 0);
    packed.copy(blob, header.length);
    return blob;
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
    const input = blob.subarray(at);
    const dictionary = dictionaryBytes(id);
    const stream = inflaters.get(dictionary);
    const kept = stream ? stream.run(input) : -1;
    const text = kept >= 0
      ? keptOutput.toString('utf8', 0, kept)
      : zlib.inflateRawSync(input, { dictionary, chunkSize: CHUNK_BYTES }).toString();
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

  const eventIdOfHex = (hex) => {
    if (hex.length !== UUID_BYTES * 2) throw new Error('Unknown stored event id of ' + hex.length / 2 + ' bytes');
    return hex.slice(0, 8) + '-' + hex.slice(8, 12) + '-' + hex.slice(12, 16) + '-' + hex.slice(16, 20) + '-' + hex.slice(20);
  };

  const eventIdOf = (stored) => (typeof stored === 'string' ? stored : eventIdOfHex(stored.toString('hex')));

  return {
    encode,
    decode,
    buildDictionary,
    storedEventId,
    eventIdOf,
    eventIdOfHex,
    get keepsStreams() { return deflaters.usable && inflaters.usable; },
  };
})`;

/** Source of an expression that evaluates to the codec, given `require` in scope (worker code). */
export const PAYLOAD_CODEC_EXPRESSION = `${PAYLOAD_CODEC_SOURCE}(require('node:zlib'))`;

/** A new instance of the codec over `zlibModule` (node:zlib; a test gives it another). */
export function makePayloadCodec(zlibModule: typeof zlib = zlib): PayloadCodec {
  return (runInThisContext(PAYLOAD_CODEC_SOURCE) as (z: typeof zlib) => PayloadCodec)(zlibModule);
}

let codec: PayloadCodec | undefined;

/** This thread's instance of the codec. */
export function payloadCodec(): PayloadCodec {
  codec ??= makePayloadCodec();
  return codec;
}
