import { spec, FIXED_NOW } from '@tollgate/testing';
import type { SealedSecret } from '../options/options.events';
import type { CreateChannel } from './channel.commands';
import { channelDecider } from './channel.decider';
import type { ChannelConfig, ChannelCreated, ChannelEvent } from './channel.events';
import { splitList } from './channel.rules';
import { EMPTY_CHANNEL_CONFIG, evolveChannel, initialChannelState } from './channel.state';

const NOW_S = Math.floor(FIXED_NOW.getTime() / 1000);
const sealed = (hash: string): SealedSecret => ({ cipher: `cipher-${hash}`, hash });

const CONFIG: ChannelConfig = {
  ...EMPTY_CHANNEL_CONFIG,
  type: 1,
  name: 'openai-main',
  baseUrl: 'https://api.example.com',
  models: ['gpt-4o', 'gpt-4o-mini'],
  groups: ['default', 'vip'],
};

const create = (
  config: Partial<ChannelConfig> = {},
  extra: Partial<CreateChannel> = {},
): CreateChannel => ({
  type: 'CreateChannel',
  channelId: 5,
  config: { ...CONFIG, ...config },
  key: 'sk-abc',
  sealedKey: sealed('h1'),
  ...extra,
});

const created = (config: Partial<ChannelConfig> = {}, status: 1 | 2 = 1): ChannelCreated => ({
  type: 'ChannelCreated',
  data: {
    channelId: 5,
    config: { ...CONFIG, ...config },
    key: sealed('h1'),
    status,
    createdTime: NOW_S,
  },
});

const statusChanged = (from: number, to: number, reason = ''): ChannelEvent => ({
  type: 'ChannelStatusChanged',
  data: { channelId: 5, from, to, reason, time: NOW_S },
});
const deleted: ChannelEvent = { type: 'ChannelDeleted', data: { channelId: 5 } };

describe('channelDecider', () => {
  describe('CreateChannel', () => {
    it('records the normalized channel with the sealed key, enabled', () => {
      spec(channelDecider)
        .given([])
        .when(create({ name: '  openai-main ', baseUrl: 'https://api.example.com///', weight: -5 }))
        .then([created({ weight: 0 })]);
    });

    it('created disabled when asked', () => {
      spec(channelDecider)
        .given([])
        .when(create({}, { status: 2 }))
        .then([created({}, 2)]);
    });

    it('defaults other for Azure and Spark, and the group to default', () => {
      const [azure] = channelDecider.decide(create({ type: 3, groups: [] }), initialChannelState, {
        now: FIXED_NOW,
      }) as ChannelCreated[];
      expect(azure!.data.config.other).toBe('2023-06-01-preview');
      expect(azure!.data.config.groups).toEqual(['default']);
      const [spark] = channelDecider.decide(
        create({ type: 18 }, { key: 'app|secret|key' }),
        initialChannelState,
        { now: FIXED_NOW },
      ) as ChannelCreated[];
      expect(spark!.data.config.other).toBe('v2.1');
    });

    it('keeps an explicit other', () => {
      const [azure] = channelDecider.decide(
        create({ type: 3, other: '2024-02-01' }),
        initialChannelState,
        {
          now: FIXED_NOW,
        },
      ) as ChannelCreated[];
      expect(azure!.data.config.other).toBe('2024-02-01');
    });

    it.each([
      ['no name', create({ name: '  ' }), 'channel.name_key_required'],
      ['an invisible name', create({ name: '\u200b\ufeff ' }), 'channel.name_key_required'],
      ['no key', create({}, { key: ' ' }), 'channel.name_key_required'],
      ['no model', create({ models: [' ', ''] }), 'channel.models_required'],
      [
        'model mapping not JSON',
        create({ modelMapping: '{oops' }),
        'channel.model_mapping_invalid',
      ],
      [
        'model mapping not an object',
        create({ modelMapping: '[1]' }),
        'channel.model_mapping_invalid',
      ],
      [
        'model mapping non-string value',
        create({ modelMapping: '{"a":1}' }),
        'channel.model_mapping_invalid',
      ],
      [
        'status code mapping not JSON',
        create({ statusCodeMapping: 'x' }),
        'channel.status_code_mapping_invalid',
      ],
      ['setting not an object', create({ setting: '"x"' }), 'channel.setting_invalid'],
      ['priority below -999', create({ priority: -1000 }), 'channel.priority_too_low'],
      ['unknown type', create({ type: 999 }), 'channel.type_unknown'],
      ['type 0', create({ type: 0 }), 'channel.type_unknown'],
      ['base URL not http', create({ baseUrl: 'ftp://x' }), 'channel.base_url_invalid'],
      [
        'Baidu key without secret',
        create({ type: 15 }, { key: 'only-key' }),
        'channel.key_invalid',
      ],
      ['Vertex key not JSON', create({ type: 41 }, { key: 'abc' }), 'channel.key_invalid'],
      [
        'Vertex region not JSON',
        create({ type: 41, other: 'us' }, { key: '{"a":"b"}' }),
        'channel.region_invalid',
      ],
      ['status 3 by hand', create({}, { status: 3 }), 'channel.status_invalid'],
    ])('rejects %s', (_what, command, code) => {
      spec(channelDecider).given([]).when(command).thenRejects(code);
    });

    it('keeps a parameter override object; refuses one that is not an object or sets model/stream', () => {
      spec(channelDecider)
        .given([])
        .when(create({ paramOverride: ' {"temperature":0.2} ' }))
        .then([created({ paramOverride: '{"temperature":0.2}' })]);
      for (const bad of ['{oops', '[1]', '3', `{"a":"${'x'.repeat(10_000)}"}`])
        spec(channelDecider)
          .given([])
          .when(create({ paramOverride: bad }))
          .thenRejects('channel.param_override_invalid');
      spec(channelDecider)
        .given([])
        .when(create({ paramOverride: '{"stream":true,"model":"x"}' }))
        .thenRejects('channel.param_override_protected', { keys: 'model, stream' });
    });

    it('an update sets and clears the override; a channel created before it had none', () => {
      const { paramOverride: _none, ...older } = CONFIG;
      const before: ChannelCreated = { ...created(), data: { ...created().data, config: older } };
      spec(channelDecider)
        .given([before])
        .when({ type: 'UpdateChannel', changes: { paramOverride: '{"top_p":1}' } })
        .then([
          {
            type: 'ChannelUpdated',
            data: { channelId: 5, changes: { paramOverride: '{"top_p":1}' } },
          },
        ]);
      spec(channelDecider)
        .given([before])
        .when({ type: 'UpdateChannel', changes: { name: 'n' } })
        .then([{ type: 'ChannelUpdated', data: { channelId: 5, changes: { name: 'n' } } }]);
      spec(channelDecider)
        .given([created({ paramOverride: '{"top_p":1}' })])
        .when({ type: 'UpdateChannel', changes: { paramOverride: '' } })
        .then([{ type: 'ChannelUpdated', data: { channelId: 5, changes: { paramOverride: '' } } }]);
    });

    it('names the expected key format', () => {
      spec(channelDecider)
        .given([])
        .when(create({ type: 23 }, { key: 'a|b' }))
        .thenRejects('channel.key_invalid', { format: 'AppId|SecretId|SecretKey' });
    });

    it('priority -999 is allowed', () => {
      spec(channelDecider)
        .given([])
        .when(create({ priority: -999 }))
        .then([created({ priority: -999 })]);
    });

    it('rejects a second creation on the same stream', () => {
      spec(channelDecider).given([created()]).when(create()).thenRejects('channel.already_exists');
    });
  });

  describe('UpdateChannel', () => {
    it('records only the fields that changed', () => {
      spec(channelDecider)
        .given([created()])
        .when({ type: 'UpdateChannel', changes: { ...CONFIG, priority: 5, name: 'renamed' } })
        .then([
          {
            type: 'ChannelUpdated',
            data: { channelId: 5, changes: { name: 'renamed', priority: 5 } },
          },
        ]);
    });

    it('partial: weight alone, negative clamped to 0', () => {
      spec(channelDecider)
        .given([created({ weight: 3 })])
        .when({ type: 'UpdateChannel', changes: { weight: -4 } })
        .then([{ type: 'ChannelUpdated', data: { channelId: 5, changes: { weight: 0 } } }]);
    });

    it('nothing changed → no event', () => {
      spec(channelDecider)
        .given([created()])
        .when({ type: 'UpdateChannel', changes: { ...CONFIG } })
        .then([]);
    });

    it('a new key replaces the sealed one; the same key (same hash) changes nothing', () => {
      spec(channelDecider)
        .given([created()])
        .when({ type: 'UpdateChannel', changes: {}, key: 'sk-new', sealedKey: sealed('h2') })
        .then([{ type: 'ChannelUpdated', data: { channelId: 5, changes: {}, key: sealed('h2') } }]);
      spec(channelDecider)
        .given([created()])
        .when({ type: 'UpdateChannel', changes: {}, key: 'sk-abc', sealedKey: sealed('h1') })
        .then([]);
    });

    it('an empty key keeps the stored one', () => {
      spec(channelDecider)
        .given([created()])
        .when({ type: 'UpdateChannel', changes: { weight: 1 }, key: '', sealedKey: sealed('h9') })
        .then([{ type: 'ChannelUpdated', data: { channelId: 5, changes: { weight: 1 } } }]);
    });

    it('a type change needs a key valid for the new type', () => {
      spec(channelDecider)
        .given([created()])
        .when({ type: 'UpdateChannel', changes: { type: 15 }, mayRetargetStoredKey: true })
        .thenRejects('channel.key_required_for_type_change');
      spec(channelDecider)
        .given([created()])
        .when({
          type: 'UpdateChannel',
          changes: { type: 15 },
          key: 'sk-abc',
          sealedKey: sealed('h1'),
        })
        .thenRejects('channel.key_invalid');
    });

    describe('where the key is sent (type, base URL, other)', () => {
      const retargets: ReadonlyArray<[string, Partial<ChannelConfig>]> = [
        ['base URL', { baseUrl: 'https://collector.example.net' }],
        ['base URL cleared to the default host', { baseUrl: '' }],
        ['type', { type: 8 }],
        ['other', { other: 'attacker-account' }],
      ];

      it.each(retargets)('%s without a key: refused unless the editor may retarget', (_, c) => {
        spec(channelDecider)
          .given([created()])
          .when({ type: 'UpdateChannel', changes: c })
          .thenRejects('channel.key_required_for_target_change');
        spec(channelDecider)
          .given([created()])
          .when({ type: 'UpdateChannel', changes: c, key: ' ', mayRetargetStoredKey: false })
          .thenRejects('channel.key_required_for_target_change');
      });

      it.each(retargets)('%s with a key entered in the same update: recorded', (_, c) => {
        spec(channelDecider)
          .given([created()])
          .when({ type: 'UpdateChannel', changes: c, key: 'sk-mine', sealedKey: sealed('h7') })
          .then([
            { type: 'ChannelUpdated', data: { channelId: 5, changes: c, key: sealed('h7') } },
          ]);
      });

      it('root keeps the stored key when changing the base URL', () => {
        spec(channelDecider)
          .given([created()])
          .when({
            type: 'UpdateChannel',
            changes: { baseUrl: 'https://other.example.com' },
            mayRetargetStoredKey: true,
          })
          .then([
            {
              type: 'ChannelUpdated',
              data: { channelId: 5, changes: { baseUrl: 'https://other.example.com' } },
            },
          ]);
      });

      it('the same target written differently, or other fields, need no key', () => {
        spec(channelDecider)
          .given([created()])
          .when({
            type: 'UpdateChannel',
            changes: { ...CONFIG, baseUrl: 'https://api.example.com/', name: 'renamed' },
          })
          .then([{ type: 'ChannelUpdated', data: { channelId: 5, changes: { name: 'renamed' } } }]);
        spec(channelDecider)
          .given([created()])
          .when({
            type: 'UpdateChannel',
            changes: { models: ['gpt-4o'], modelMapping: '{"a":"b"}', setting: '{"x":1}' },
            status: 2,
          })
          .then([
            {
              type: 'ChannelUpdated',
              data: {
                channelId: 5,
                changes: { models: ['gpt-4o'], modelMapping: '{"a":"b"}', setting: '{"x":1}' },
              },
            },
            statusChanged(1, 2),
          ]);
      });
    });

    it('status 2 disables by hand, 1 enables (also from 3, clearing the reason)', () => {
      spec(channelDecider)
        .given([created()])
        .when({ type: 'UpdateChannel', changes: {}, status: 2 })
        .then([statusChanged(1, 2)]);
      spec(channelDecider)
        .given([created(), statusChanged(1, 3, 'invalid key')])
        .when({ type: 'UpdateChannel', changes: {}, status: 1 })
        .then([statusChanged(3, 1)]);
    });

    it('the unchanged status 3 sent back by the edit form is no request', () => {
      spec(channelDecider)
        .given([created(), statusChanged(1, 3, 'x')])
        .when({ type: 'UpdateChannel', changes: { weight: 2 }, status: 3 })
        .then([{ type: 'ChannelUpdated', data: { channelId: 5, changes: { weight: 2 } } }]);
    });

    it('same status → no event; status 3 by hand is refused', () => {
      spec(channelDecider)
        .given([created()])
        .when({ type: 'UpdateChannel', changes: {}, status: 1 })
        .then([]);
      spec(channelDecider)
        .given([created()])
        .when({ type: 'UpdateChannel', changes: {}, status: 3 })
        .thenRejects('channel.status_invalid');
    });

    it('validates the merged configuration', () => {
      spec(channelDecider)
        .given([created()])
        .when({ type: 'UpdateChannel', changes: { models: [] } })
        .thenRejects('channel.models_required');
      spec(channelDecider)
        .given([created()])
        .when({ type: 'UpdateChannel', changes: { priority: -1000 } })
        .thenRejects('channel.priority_too_low');
    });

    it('unknown or deleted channel', () => {
      spec(channelDecider)
        .given([])
        .when({ type: 'UpdateChannel', changes: {} })
        .thenRejects('channel.not_found');
      spec(channelDecider)
        .given([created(), deleted])
        .when({ type: 'UpdateChannel', changes: {} })
        .thenRejects('channel.not_found');
    });
  });

  describe('CopyChannel', () => {
    const source = [
      created({ name: 'src' }),
      { type: 'ChannelBalanceUpdated', data: { channelId: 5, balance: 12, updatedTime: 99 } },
    ] as ChannelEvent[];
    const sourceState = source.reduce(evolveChannel, initialChannelState);

    it('creates the copy with the suffix and the same sealed key, balance reset', () => {
      spec(channelDecider)
        .given([])
        .when({
          type: 'CopyChannel',
          channelId: 9,
          source: sourceState,
          suffix: '_复制',
          resetBalance: true,
        })
        .then([
          {
            type: 'ChannelCreated',
            data: {
              channelId: 9,
              config: { ...CONFIG, name: 'src_复制' },
              key: sealed('h1'),
              status: 1,
              createdTime: NOW_S,
              copiedFrom: 5,
            },
          },
        ]);
    });

    it('keeps the balance when not reset', () => {
      const events = channelDecider.decide(
        { type: 'CopyChannel', channelId: 9, source: sourceState, suffix: '', resetBalance: false },
        initialChannelState,
        { now: FIXED_NOW },
      );
      expect(events[1]).toEqual({
        type: 'ChannelBalanceUpdated',
        data: { channelId: 9, balance: 12, updatedTime: 99 },
      });
    });

    it('a copy of a disabled channel is disabled by hand', () => {
      const disabled = [created(), statusChanged(1, 3, 'x')].reduce(
        evolveChannel,
        initialChannelState,
      );
      const [copy] = channelDecider.decide(
        { type: 'CopyChannel', channelId: 9, source: disabled, suffix: '', resetBalance: true },
        initialChannelState,
        { now: FIXED_NOW },
      ) as ChannelCreated[];
      expect(copy!.data.status).toBe(2);
    });

    it('rejects a missing source', () => {
      spec(channelDecider)
        .given([])
        .when({
          type: 'CopyChannel',
          channelId: 9,
          source: initialChannelState,
          suffix: '',
          resetBalance: true,
        })
        .thenRejects('channel.not_found');
    });
  });

  describe('DeleteChannel', () => {
    it('deletes once', () => {
      spec(channelDecider).given([created()]).when({ type: 'DeleteChannel' }).then([deleted]);
      spec(channelDecider)
        .given([created(), deleted])
        .when({ type: 'DeleteChannel' })
        .thenRejects('channel.not_found');
      spec(channelDecider)
        .given([])
        .when({ type: 'DeleteChannel' })
        .thenRejects('channel.not_found');
    });
  });

  describe('automatic status changes', () => {
    it('disables an enabled channel with the reason', () => {
      spec(channelDecider)
        .given([created()])
        .when({ type: 'DisableChannelAutomatically', reason: 'status 401: invalid key' })
        .then([statusChanged(1, 3, 'status 401: invalid key')]);
    });

    it('no event when not enabled (manual or already automatic) or gone', () => {
      for (const past of [
        [created(), statusChanged(1, 2)],
        [created(), statusChanged(1, 3, 'x')],
        [],
        [created(), deleted],
      ])
        spec(channelDecider)
          .given(past)
          .when({ type: 'DisableChannelAutomatically', reason: 'r' })
          .then([]);
    });

    it('clips long reasons to 500 characters', () => {
      const [event] = channelDecider.decide(
        { type: 'DisableChannelAutomatically', reason: 'x'.repeat(800) },
        [created()].reduce(evolveChannel, initialChannelState),
        { now: FIXED_NOW },
      );
      expect((event!.data as { reason: string }).reason).toHaveLength(500);
    });

    it('enables only from status 3', () => {
      spec(channelDecider)
        .given([created(), statusChanged(1, 3, 'x')])
        .when({ type: 'EnableChannelAutomatically' })
        .then([statusChanged(3, 1)]);
      spec(channelDecider)
        .given([created(), statusChanged(1, 2)])
        .when({ type: 'EnableChannelAutomatically' })
        .then([]);
      spec(channelDecider).given([created()]).when({ type: 'EnableChannelAutomatically' }).then([]);
    });
  });

  describe('tests and balances', () => {
    it('records a test result', () => {
      spec(channelDecider)
        .given([created()])
        .when({
          type: 'RecordChannelTest',
          model: 'gpt-4o',
          success: false,
          responseTimeMs: 1234.6,
          message: 'status 500',
        })
        .then([
          {
            type: 'ChannelTested',
            data: {
              channelId: 5,
              model: 'gpt-4o',
              success: false,
              responseTimeMs: 1235,
              message: 'status 500',
              testTime: NOW_S,
            },
          },
        ]);
    });

    it('a failed test keeps the upstream status', () => {
      spec(channelDecider)
        .given([created()])
        .when({
          type: 'RecordChannelTest',
          model: 'gpt-4o',
          success: false,
          responseTimeMs: 12,
          message: 'Incorrect API key provided',
          status: 401,
        })
        .then([
          {
            type: 'ChannelTested',
            data: {
              channelId: 5,
              model: 'gpt-4o',
              success: false,
              responseTimeMs: 12,
              message: 'Incorrect API key provided',
              testTime: NOW_S,
              status: 401,
            },
          },
        ]);
    });

    it('records a balance', () => {
      spec(channelDecider)
        .given([created()])
        .when({ type: 'RecordChannelBalance', balance: 42.5 })
        .then([
          {
            type: 'ChannelBalanceUpdated',
            data: { channelId: 5, balance: 42.5, updatedTime: NOW_S },
          },
        ]);
      spec(channelDecider)
        .given([created()])
        .when({ type: 'RecordChannelBalance', balance: Number.NaN })
        .thenRejects('channel.balance_invalid');
    });

    it('refuses results for a deleted channel', () => {
      spec(channelDecider)
        .given([created(), deleted])
        .when({ type: 'RecordChannelBalance', balance: 1 })
        .thenRejects('channel.not_found');
      spec(channelDecider)
        .given([created(), deleted])
        .when({
          type: 'RecordChannelTest',
          model: 'm',
          success: true,
          responseTimeMs: 1,
          message: '',
        })
        .thenRejects('channel.not_found');
    });

    it('the state follows tests, balances and status', () => {
      const state = [
        created(),
        statusChanged(1, 3, 'why'),
        {
          type: 'ChannelTested',
          data: {
            channelId: 5,
            model: 'm',
            success: true,
            responseTimeMs: 80,
            message: '',
            testTime: 7,
          },
        },
        { type: 'ChannelBalanceUpdated', data: { channelId: 5, balance: 3, updatedTime: 8 } },
      ].reduce((s, e) => evolveChannel(s, e as ChannelEvent), initialChannelState);
      expect(state).toMatchObject({
        status: 3,
        statusReason: 'why',
        responseTimeMs: 80,
        testTime: 7,
        balance: 3,
        balanceUpdatedTime: 8,
      });
    });
  });

  it('splitList trims, drops empties and duplicates', () => {
    expect(splitList(' a, b ,,a,c ')).toEqual(['a', 'b', 'c']);
  });
});
