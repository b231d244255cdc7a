import { LogType } from '@tollgate/contracts';
import type { RecordedEvent } from '@tollgate/event-store';
import { usageReceipt } from '@tollgate/testing';
import type { LogRow, LogRowParts } from './log.document';
import { baseRow, consumptionParts } from './log-rows';
import {
  logKey,
  packLog,
  packLogParts,
  storedFilter,
  unpackLog,
  type StoredLog,
} from './stored-log';

const consumption: LogRow = {
  id: 1205,
  created_at: 1_768_469_760,
  type: LogType.Consume,
  user_id: 50,
  username: 'user50',
  token_name: 'token 100',
  model_name: 'gpt-4o-mini',
  quota: 1024,
  prompt_tokens: 119,
  completion_tokens: 229,
  use_time: 1,
  is_stream: true,
  channel: 5,
  token_id: 100,
  group: 'default',
  request_id: '23a1313e2e6fb714572d602ee853b2a5',
  retry: '',
  ip: '203.0.113.249',
  content: '',
  other:
    '{"frt":538,"model_ratio":0.075,"completion_ratio":4,"group_ratio":1,"model_price":-1,' +
    '"cache_ratio":0.5,"admin_info":{"use_channel":[5]}}',
  admin_id: 0,
};
const system: LogRow = {
  ...consumption,
  type: LogType.System,
  token_name: '',
  model_name: '',
  quota: 500,
  prompt_tokens: 0,
  completion_tokens: 0,
  use_time: 0,
  is_stream: false,
  channel: 0,
  token_id: 0,
  group: '',
  request_id: '',
  ip: '',
  content: '新用户注册赠送 500 额度',
  other: '',
};

/** The stored row read back: `row`, field order and `other`'s text included. Returns `stored`. */
const expectReadBack = (stored: StoredLog, row: LogRow): StoredLog => {
  const back = unpackLog(stored);
  expect(Object.keys(back)).toEqual(Object.keys(row));
  expect(back).toEqual(row);
  return stored;
};

/** Packed from its `other` object, through the stored JSON and back: the row with that text. */
const storedTrip = (parts: LogRowParts) =>
  expectReadBack(JSON.parse(JSON.stringify(packLogParts(parts))) as StoredLog, {
    ...parts.row,
    other: JSON.stringify(parts.other),
  });

/** Packed and unpacked: the same row. */
const roundTrip = (row: LogRow) => expectReadBack(packLog(row), row);

describe('the stored log row', () => {
  it("keeps a receipt's non-default fields and its ratios, not the channel it names twice", () => {
    const stored = roundTrip(consumption);
    expect(stored).toEqual({
      _id: logKey(1205),
      t: 1_768_469_760,
      y: 2,
      u: 50,
      n: 'user50',
      k: 'token 100',
      m: 'gpt-4o-mini',
      q: 1024,
      p: 119,
      c: 229,
      ut: 1,
      s: true,
      ch: 5,
      tk: 100,
      g: 'default',
      rx: Buffer.from('23a1313e2e6fb714572d602ee853b2a5', 'hex').toString('base64url'),
      ip: '203.0.113.249',
      x: [0.075, 4, 1, -1, 0.5, 538],
    });
  });

  it('leaves a system row its found-by fields and what it says', () => {
    expect(roundTrip(system)).toEqual({
      _id: logKey(1205),
      t: 1_768_469_760,
      y: 4,
      u: 50,
      n: 'user50',
      q: 500,
      ct: '新用户注册赠送 500 额度',
    });
    expect(roundTrip({ ...system, user_id: 0, username: '' })).toMatchObject({ u: 0 });
  });

  it('packs the extras, the retries and an error row; keeps any other text as it is', () => {
    const extras =
      '{"model_ratio":1,"completion_ratio":1,"group_ratio":1,"model_price":-1,"cache_ratio":1,' +
      '"cache_tokens":12,"stream_cut":true,"requested_model":"gpt-4o","fallback_reason":"failed",' +
      '"admin_info":{"use_channel":[4,5]}}';
    expect(roundTrip({ ...consumption, retry: '4,5', other: extras })).toMatchObject({
      x: [1, 1, 1, -1, 1],
      e: {
        cache_tokens: 12,
        stream_cut: true,
        requested_model: 'gpt-4o',
        fallback_reason: 'failed',
      },
    });
    const error = '{"status_code":502,"retries":1,"admin_info":{"use_channel":[4,9]}}';
    expect(
      roundTrip({ ...consumption, type: LogType.Error, retry: '4,9', other: error }),
    ).toMatchObject({ e: { status_code: 502, retries: 1 } });
    for (const other of [
      '{"model_ratio":1,"admin_info":{"use_channel":[7]}}', // not the channel tried
      '{"admin_info":{"admin_id":1}}',
      '{"admin_info":{"use_channel":[5],"admin_id":1}}', // more than the channels
      '{"admin_info":{"use_channel":[5,5]}}',
      '{"admin_info":{"use_channel":"5"}}',
      '{"admin_info":[5]}',
      '{"admin_info":null}',
      '{"model_ratio":1.0}', // not as JSON writes it
      '[1,2]',
      'not json',
      // An own `__proto__` (an imported row's) would not survive as a field of `e`.
      '{"__proto__":{"a":1},"model_ratio":1,"completion_ratio":1,"group_ratio":1,"model_price":-1,"cache_ratio":1,"admin_info":{"use_channel":[5]}}',
    ])
      expect(roundTrip({ ...consumption, other })).toMatchObject({ o: other });
  });

  it('reads an `e` that holds `__proto__` back as a field of `other`', () => {
    const stored = {
      ...packLog(consumption),
      e: JSON.parse('{"__proto__":{"a":1}}') as Record<string, unknown>,
    };
    expect(unpackLog(stored).other).toBe(
      '{"frt":538,"model_ratio":0.075,"completion_ratio":4,"group_ratio":1,"model_price":-1,' +
        '"cache_ratio":0.5,"__proto__":{"a":1},"admin_info":{"use_channel":[5]}}',
    );
  });

  it("packs a receipt's `other` object to the text it stringifies to, every optional part", () => {
    const recorded = {
      metadata: { occurredAt: '2026-01-15T08:00:00.000Z', ip: '10.0.0.1' },
    } as unknown as RecordedEvent;
    const base = baseRow(1205, recorded, 50, 'user50');
    const parts = [
      {},
      { firstTokenMs: 538, cachedTokens: 12 },
      { cacheCreationTokens: 40, cacheCreationRatio: 1.25, reasoningTokens: 7 },
      { loweredCeiling: 100, loweredBy: 'token_quota' as const, ceilingIgnored: true },
      { loweredCeiling: 100, streamCut: true, overrun: 30 }, // `lowered_by` undefined: no key
      { paramOverride: ['temperature', 'top_p'], channelChain: [4, 9], channelId: 9 },
      { requestedModel: 'gpt-4o', fallbackReason: 'failed' as const, firstTokenMs: 0 },
      { modelRatio: Number.NaN, modelPrice: 0.02 }, // NaN writes null, either way
    ].map((fields) => consumptionParts(usageReceipt(fields), base));
    for (const built of parts) {
      const stored = storedTrip(built);
      expect(stored).not.toHaveProperty('o');
      expect(stored.x).toHaveLength(built.other['frt'] === undefined ? 5 : 6);
    }
  });

  it('keeps an `other` object as its text when its keys are not where the packed form puts them', () => {
    const row = consumptionParts(usageReceipt({ firstTokenMs: 538 }), system).row;
    const ratios = {
      model_ratio: 1,
      completion_ratio: 1,
      group_ratio: 1,
      model_price: -1,
      cache_ratio: 1,
    };
    const admin = { use_channel: [row.channel] };
    for (const other of [
      { ...ratios, frt: 538, admin_info: admin }, // frt after the ratios
      { frt: null, ...ratios, admin_info: admin }, // frt not a number
      { ...ratios, admin_info: admin, cache_tokens: 3 }, // admin_info not last
      { 7: 'an integer key comes first', ...ratios, admin_info: admin },
      { ...ratios, admin_info: { use_channel: [row.channel + 1] } },
      { ...ratios },
      {},
    ])
      expect(storedTrip({ row, other })).toEqual(
        expect.objectContaining({ o: JSON.stringify(other) }),
      );
    // Not all five ratios: every key but admin_info in `e`, in its order.
    const some = { model_ratio: 1, frt: 5, completion_ratio: 1, admin_info: admin };
    expect(storedTrip({ row, other: some })).toMatchObject({ e: { model_ratio: 1, frt: 5 } });
    const fields = JSON.parse('{"__proto__":{"a":1},"admin_info":{"use_channel":[5]}}') as object;
    expect(storedTrip({ row, other: fields as Record<string, unknown> })).toHaveProperty('o');
  });

  it("keeps a client's own request id as it is", () => {
    for (const id of [
      'req-1',
      '23A1313E2E6FB714572D602EE853B2A5',
      '23a1313e2e6fb714572d602ee853b2a',
    ])
      expect(roundTrip({ ...consumption, request_id: id })).toMatchObject({ r: id });
    expect(roundTrip(consumption).rx).toHaveLength(22);
  });

  it('orders ids as their keys sort', () => {
    const ids = [0, 1, 9, 35, 36, 1205, 46_655, 46_656, 10 ** 9, Number.MAX_SAFE_INTEGER];
    const keys = ids.map(logKey);
    expect([...keys].sort()).toEqual(keys);
    expect(keys.map((key) => unpackLog({ ...packLog(system), _id: key }).id)).toEqual(ids);
  });

  it('names the stored keys in filters, inside $or too', () => {
    expect(
      storedFilter({ user_id: 7, $or: [{ token_name: 'a' }, { model_name: 'b' }], type: 2 }),
    ).toEqual({ u: 7, $or: [{ k: 'a' }, { m: 'b' }], y: 2 });
    expect(() => storedFilter({ nope: 1 })).toThrow('no field nope');
  });
});
