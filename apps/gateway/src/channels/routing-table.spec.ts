import type { ChannelConfig, ChannelEvent } from '@tollgate/domain';
import { EMPTY_CHANNEL_CONFIG } from '@tollgate/domain';
import type { RecordedEvent } from '@tollgate/event-store';
import type { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { SecretBox } from '../infrastructure/secret-box';
import { ROUTING_REBUILD_REQUESTED } from './channels.projection';
import { RoutingTable } from './routing-table';

const box = new SecretBox('unit-secret');
let position = 0n;
const recorded = (event: ChannelEvent | { type: string; data: object }): RecordedEvent => {
  position += 1n;
  return {
    id: `e${position}`,
    type: event.type,
    data: event.data,
    metadata: {},
    streamId: 's',
    revision: 0,
    position: { commit: position, prepare: position },
    recordedAt: new Date(0),
  };
};

const config = (overrides: Partial<ChannelConfig>): ChannelConfig => ({
  ...EMPTY_CHANNEL_CONFIG,
  name: 'c',
  models: ['gpt-4o'],
  groups: ['default'],
  ...overrides,
});
const created = (
  channelId: number,
  overrides: Partial<ChannelConfig> = {},
  key = `sk-${channelId}`,
) =>
  recorded({
    type: 'ChannelCreated',
    data: { channelId, config: config(overrides), key: box.seal(key), status: 1, createdTime: 1 },
  });
const status = (channelId: number, from: number, to: number) =>
  recorded({ type: 'ChannelStatusChanged', data: { channelId, from, to, reason: '', time: 2 } });

function newTable(): RoutingTable {
  const registered: unknown[] = [];
  const feed = { register: (cache: unknown) => registered.push(cache) } as unknown as CacheFeed;
  const table = new RoutingTable(box, feed);
  expect(registered).toEqual([table]);
  return table;
}

describe('RoutingTable', () => {
  it('indexes enabled channels by group and model, by priority then id', () => {
    const table = newTable();
    table.apply([
      created(1, { priority: 0, groups: ['default', 'vip'] }),
      created(2, { priority: 5 }),
      created(3, { priority: 5, models: ['gpt-4o', 'o1'] }),
    ]);
    expect(table.candidates('default', 'gpt-4o').map((c) => c.id)).toEqual([2, 3, 1]);
    expect(table.candidates('vip', 'gpt-4o').map((c) => c.id)).toEqual([1]);
    expect(table.candidates('vip', 'o1')).toEqual([]);
    expect(table.candidates('nope', 'gpt-4o')).toEqual([]);
    expect(table.models('default')).toEqual(['gpt-4o', 'o1']);
  });

  it('decrypts keys, defaults the base URL, parses the JSON fields', () => {
    const table = newTable();
    table.apply([
      created(1, {
        type: 40,
        modelMapping: '{"a":"b"}',
        statusCodeMapping: '{"400":"500"}',
        setting: '{"force_format":true}',
      }),
    ]);
    expect(table.channel(1)).toMatchObject({
      key: 'sk-1',
      baseUrl: 'https://api.siliconflow.cn',
      modelMapping: { a: 'b' },
      statusCodeMapping: { '400': '500' },
      setting: { force_format: true },
      status: 1,
    });
  });

  it('follows status changes, updates and deletes', () => {
    const table = newTable();
    table.apply([created(1), created(2)]);
    table.apply([status(1, 1, 3)]);
    expect(table.candidates('default', 'gpt-4o').map((c) => c.id)).toEqual([2]);
    expect(table.channel(1)?.status).toBe(3);
    table.apply([status(1, 3, 1)]);
    table.apply([
      recorded({
        type: 'ChannelUpdated',
        data: { channelId: 2, changes: { priority: 9 }, key: box.seal('sk-new') },
      }),
    ]);
    expect(table.candidates('default', 'gpt-4o').map((c) => c.id)).toEqual([2, 1]);
    expect(table.channel(2)?.key).toBe('sk-new');
    table.apply([recorded({ type: 'ChannelDeleted', data: { channelId: 2 } })]);
    expect(table.channel(2)).toBeUndefined();
    expect(table.candidates('default', 'gpt-4o').map((c) => c.id)).toEqual([1]);
    table.apply([recorded({ type: ROUTING_REBUILD_REQUESTED, data: {} })]);
    expect(table.all().map((c) => c.id)).toEqual([1]);
  });

  it('a key sealed under another secret leaves that channel keyless, the others intact', () => {
    const table = newTable();
    const foreign = new SecretBox('other-secret');
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    table.apply([
      recorded({
        type: 'ChannelCreated',
        data: {
          channelId: 1,
          config: config({}),
          key: foreign.seal('x'),
          status: 1,
          createdTime: 1,
        },
      }),
      created(2),
    ]);
    expect(table.channel(1)?.key).toBe('');
    expect(table.channel(2)?.key).toBe('sk-2');
  });

  it('takes no test or balance events: they change nothing it routes by', () => {
    const table = newTable();
    expect(table.eventTypes).toEqual([
      'ChannelCreated',
      'ChannelUpdated',
      'ChannelStatusChanged',
      'ChannelDeleted',
      'ChannelImported',
      ROUTING_REBUILD_REQUESTED,
    ]);
  });

  it('routes an imported enabled channel at once, never an imported disabled one', () => {
    const table = newTable();
    const imported = (channelId: number, status: 1 | 2 | 3, type = 1) =>
      recorded({
        type: 'ChannelImported',
        data: {
          channelId,
          config: config({ type, baseUrl: type === 43 ? '' : 'https://up.example.com' }),
          key: box.seal(`sk-imp-${channelId}`),
          status,
          statusReason: status === 3 ? 'quota' : '',
          statusTime: 0,
          createdTime: 1,
          testTime: 0,
          responseTimeMs: 0,
          balance: 0,
          balanceUpdatedTime: 0,
          usedQuota: 10,
          sourceType: type === 43 ? 36 : type,
          source: { project: 'one-api', table: 'channels', rowId: channelId, importedAt: 'x' },
        },
      });
    table.apply([imported(1, 1), imported(2, 2), imported(3, 3), imported(4, 1, 43)]);
    expect(table.candidates('default', 'gpt-4o').map((c) => c.id)).toEqual([1, 4]);
    expect(table.channel(1)).toMatchObject({ key: 'sk-imp-1', baseUrl: 'https://up.example.com' });
    expect(table.channel(3)?.status).toBe(3);
    // DeepSeek (new-api 43) with no base URL: the type's default address.
    expect(table.channel(4)?.baseUrl).toBe('https://api.deepseek.com');
  });

  it('hands out frozen views', () => {
    const table = newTable();
    table.apply([created(1)]);
    const list = table.candidates('default', 'gpt-4o');
    expect(Object.isFrozen(list[0])).toBe(true);
    expect(Object.isFrozen(list[0]!.models)).toBe(true);
  });
});
