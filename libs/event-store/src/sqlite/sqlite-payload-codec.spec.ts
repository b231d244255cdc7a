import { randomBytes } from 'node:crypto';
import * as zlib from 'node:zlib';
import {
  makePayloadCodec,
  type PayloadDictionary,
  type PayloadTexts,
} from './sqlite-payload-codec';

const FORMAT_DEFLATE = 1;

function receipt(i: number): PayloadTexts {
  return {
    metadata: JSON.stringify({ causationId: `req-${i}`, ip: '10.0.0.1', occurredAt: i }),
    data: JSON.stringify({
      requestId: `req-${i}`,
      userId: i % 7,
      model: 'gpt-4o-mini',
      quota: i * 3,
    }),
  };
}

function dictionary(id: number): PayloadDictionary {
  return {
    id,
    bytes: Buffer.from(`{"causationId":"req-","ip":"10.0.0.${id}"}\n{"model":"gpt-4o"}`),
  };
}

/** The blob as node's one-shot deflate writes it: the format, the id (one byte below 128), the stream. */
function oneShotBlob(dict: PayloadDictionary, texts: PayloadTexts): Buffer {
  const packed = zlib.deflateRawSync(Buffer.from(`${texts.metadata}\n${texts.data}`), {
    dictionary: dict.bytes,
  });
  return Buffer.concat([Buffer.from([FORMAT_DEFLATE, dict.id]), packed]);
}

/** zlib without the stream handle the codec keeps: it must fall back to the one-shot calls. */
class NoHandle {
  close(): void {}
}
const zlibWithoutHandles = {
  ...zlib,
  DeflateRaw: NoHandle,
  InflateRaw: NoHandle,
} as unknown as typeof zlib;

/** zlib counting its one-shot calls: the codec takes them only to try each new stream. */
function countingZlib() {
  const calls = { deflate: 0, inflate: 0 };
  const counting = {
    ...zlib,
    deflateRawSync: (input: zlib.InputType, options?: zlib.ZlibOptions) => {
      calls.deflate += 1;
      return zlib.deflateRawSync(input, options);
    },
    inflateRawSync: (input: zlib.InputType, options?: zlib.ZlibOptions) => {
      calls.inflate += 1;
      return zlib.inflateRawSync(input, options);
    },
  };
  return { calls, zlib: counting };
}

type WriteSync = (...args: unknown[]) => void;
interface WithHandle {
  _handle: { writeSync: WriteSync };
}

/** zlib whose streams' handle misbehaves as `writeSync` says (it gets the real call and its args). */
function zlibWithHandles(writeSync: (real: WriteSync, args: unknown[]) => void): typeof zlib {
  const patch = (stream: WithHandle) => {
    const real = stream._handle.writeSync.bind(stream._handle);
    stream._handle.writeSync = (...args) => writeSync(real, args);
  };
  class DeflateRaw extends zlib.DeflateRaw {
    constructor(options: zlib.ZlibOptions) {
      super(options);
      patch(this as unknown as WithHandle);
    }
  }
  class InflateRaw extends zlib.InflateRaw {
    constructor(options: zlib.ZlibOptions) {
      super(options);
      patch(this as unknown as WithHandle);
    }
  }
  return { ...zlib, DeflateRaw, InflateRaw };
}

describe('the event payload codec', () => {
  const dictionaries = Array.from({ length: 11 }, (_, i) => dictionary(i + 1));
  const bytesOf = (id: number): Buffer => dictionaries[id - 1]!.bytes;

  it('keeps its zlib streams on this Node, and writes the bytes of the one-shot calls', () => {
    const codec = makePayloadCodec();
    // Interleaved dictionaries, more than the codec keeps streams for: each stream is reset
    // between payloads and a dropped one is made again.
    for (let i = 0; i < 60; i++) {
      const dict = dictionaries[(i * 7) % dictionaries.length]!;
      const texts = receipt(i);
      const blob = codec.encode(dict, texts);
      expect(blob).toEqual(oneShotBlob(dict, texts));
      expect(codec.decode(blob!, bytesOf)).toEqual(texts);
    }
    expect(codec.keepsStreams).toBe(true);
  });

  it('takes the one-shot calls only to try each new stream', () => {
    const { calls, zlib: counting } = countingZlib();
    const codec = makePayloadCodec(counting);
    const dict = dictionaries[0]!;
    for (let i = 0; i < 50; i++) {
      expect(codec.decode(codec.encode(dict, receipt(i))!, bytesOf)).toEqual(receipt(i));
    }
    // One probe each for the deflate and the inflate stream: both deflate the probe once.
    expect(calls).toEqual({ deflate: 2, inflate: 0 });
  });

  it('tries a dictionary once per kind, though its stream is dropped and made again', () => {
    const { calls, zlib: counting } = countingZlib();
    const codec = makePayloadCodec(counting);
    // 11 dictionaries in turn, more than the codec keeps streams for: each use makes a stream anew.
    for (let round = 0; round < 3; round++) {
      dictionaries.forEach((dict, i) => {
        expect(codec.decode(codec.encode(dict, receipt(i))!, bytesOf)).toEqual(receipt(i));
      });
    }
    expect(codec.keepsStreams).toBe(true);
    expect(calls).toEqual({ deflate: 2 * dictionaries.length, inflate: 0 });
  });

  it.each([
    [
      'gives other bytes',
      (real: WriteSync, args: unknown[]) => {
        real(...args);
        (args[4] as Buffer)[0]! ^= 0xff;
      },
    ],
    [
      'throws',
      () => {
        throw new TypeError('a changed handle');
      },
    ],
  ])('falls back to the one-shot calls when a new stream %s on its probe', (_, writeSync) => {
    const codec = makePayloadCodec(zlibWithHandles(writeSync));
    for (let i = 0; i < 5; i++) {
      const dict = dictionaries[i % 2]!;
      const blob = codec.encode(dict, receipt(i))!;
      expect(blob).toEqual(oneShotBlob(dict, receipt(i)));
      expect(codec.decode(blob, bytesOf)).toEqual(receipt(i));
    }
    expect(codec.keepsStreams).toBe(false);
  });

  it('gives the same payloads through the one-shot calls when the streams are not as expected', () => {
    const fallback = makePayloadCodec(zlibWithoutHandles);
    const kept = makePayloadCodec();
    for (let i = 0; i < 20; i++) {
      const dict = dictionaries[i % 3]!;
      const blob = fallback.encode(dict, receipt(i));
      expect(blob).toEqual(kept.encode(dict, receipt(i)));
      expect(kept.decode(blob!, bytesOf)).toEqual(receipt(i));
      expect(fallback.decode(blob!, bytesOf)).toEqual(receipt(i));
    }
    expect(fallback.keepsStreams).toBe(false);
  });

  it('round-trips payloads larger than the kept buffer, and the next one after them', () => {
    const codec = makePayloadCodec();
    const dict = dictionaries[0]!;
    // Hex compresses to about half: ~120 KB of deflate output, more than the 64 KiB kept buffer.
    const packedLarge = {
      metadata: '{}',
      data: JSON.stringify({ hex: randomBytes(120_000).toString('hex') }),
    };
    // Compresses well, but inflates to ~800 KB.
    const inflatedLarge = { metadata: '{}', data: JSON.stringify({ text: 'ab'.repeat(400_000) }) };
    for (const texts of [receipt(1), packedLarge, receipt(2), inflatedLarge, receipt(3)]) {
      const blob = codec.encode(dict, texts)!;
      expect(blob).toEqual(oneShotBlob(dict, texts));
      expect(codec.decode(blob, bytesOf)).toEqual(texts);
    }
    expect(codec.keepsStreams).toBe(true);
  });

  it('tells apart two databases whose dictionaries share an id', () => {
    const codec = makePayloadCodec();
    const first = dictionary(1);
    const second = { id: 1, bytes: Buffer.from('{"ip":"192.168.1.1","causationId":"other-"}') };
    for (let i = 0; i < 10; i++) {
      const dict = i % 2 === 0 ? first : second;
      const blob = codec.encode(dict, receipt(i))!;
      expect(blob).toEqual(oneShotBlob(dict, receipt(i)));
      expect(codec.decode(blob, () => dict.bytes)).toEqual(receipt(i));
    }
  });

  it("throws zlib's own error for a damaged blob, and decodes the next one", () => {
    const codec = makePayloadCodec();
    const dict = dictionaries[0]!;
    const good = codec.encode(dict, receipt(5))!;
    const damaged = Buffer.from([FORMAT_DEFLATE, dict.id, 1, 2, 3, 4, 5, 6]);
    expect(() => codec.decode(damaged, bytesOf)).toThrow(
      expect.objectContaining({ code: 'Z_DATA_ERROR' }),
    );
    expect(() => codec.decode(good.subarray(0, good.length - 3), bytesOf)).toThrow(
      expect.objectContaining({ code: 'Z_BUF_ERROR' }),
    );
    expect(codec.decode(good, bytesOf)).toEqual(receipt(5));
    expect(codec.keepsStreams).toBe(true);
  });
});
