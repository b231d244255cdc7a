import { FIXED_NOW, spec } from '@tollgate/testing';
import type { SealedSecret } from '../options/options.events';
import type { ImportChannel } from './channel.commands';
import { channelDecider } from './channel.decider';
import type { ChannelConfig, ChannelImported } from './channel.events';
import { EMPTY_CHANNEL_CONFIG, evolveChannel, initialChannelState } from './channel.state';

const sealed: SealedSecret = { cipher: 'cipher-k', hash: 'hash-k' };
const source = {
  project: 'one-api' as const,
  table: 'channels',
  rowId: 7,
  importedAt: '2026-01-15T08:00:00.000Z',
};

const CONFIG: ChannelConfig = {
  ...EMPTY_CHANNEL_CONFIG,
  type: 43,
  name: 'deepseek',
  models: ['deepseek-chat'],
  groups: ['default', 'vip'],
  modelMapping: '{"gpt-4":"deepseek-chat"}',
  priority: 10,
  weight: 5,
};

const facts = (over: Partial<ChannelImported['data']> = {}): ChannelImported['data'] => ({
  channelId: 7,
  config: CONFIG,
  key: sealed,
  status: 1,
  statusReason: '',
  statusTime: 0,
  createdTime: 1_700_000_000,
  testTime: 1_700_000_100,
  responseTimeMs: 420,
  balance: 12.5,
  balanceUpdatedTime: 1_700_000_200,
  usedQuota: 123_456,
  sourceType: 36,
  source,
  ...over,
});
const importChannel = (over: Partial<ChannelImported['data']> = {}): ImportChannel => ({
  type: 'ImportChannel',
  channel: facts(over),
});
const imported = (over: Partial<ChannelImported['data']> = {}): ChannelImported => ({
  type: 'ChannelImported',
  data: facts(over),
});

describe('channelDecider ImportChannel', () => {
  it('records the whole channel as the source had it', () => {
    spec(channelDecider).given([]).when(importChannel()).then([imported()]);
  });

  it('normalizes the configuration like an admin save (trailing slash, blanks)', () => {
    spec(channelDecider)
      .given([])
      .when(
        importChannel({
          config: { ...CONFIG, name: ' deepseek ', baseUrl: 'https://api.deepseek.com//' },
        }),
      )
      .then([imported({ config: { ...CONFIG, baseUrl: 'https://api.deepseek.com' } })]);
  });

  it('keeps manual and automatic disables apart', () => {
    spec(channelDecider)
      .given([])
      .when(importChannel({ status: 3, statusReason: 'quota exceeded', statusTime: 1_700_000_300 }))
      .then([imported({ status: 3, statusReason: 'quota exceeded', statusTime: 1_700_000_300 })]);
    spec(channelDecider)
      .given([])
      .when(importChannel({ status: 2 }))
      .then([imported({ status: 2 })]);
  });

  it('accepts a disabled channel of a type the console does not list, as it was', () => {
    const config = { ...CONFIG, type: 0, models: [] };
    spec(channelDecider)
      .given([])
      .when(importChannel({ status: 2, config, sourceType: 34 }))
      .then([imported({ status: 2, config, sourceType: 34 })]);
  });

  it('accepts an enabled channel of a relayed type missing from the console table', () => {
    const config = { ...CONFIG, type: 42, baseUrl: 'https://api.mistral.ai' };
    spec(channelDecider)
      .given([])
      .when(importChannel({ config, sourceType: 28 }))
      .then([imported({ config, sourceType: 28 })]);
  });

  it('refuses an enabled channel the rules refuse', () => {
    spec(channelDecider)
      .given([])
      .when(importChannel({ config: { ...CONFIG, modelMapping: '{bad' } }))
      .thenRejects('channel.model_mapping_invalid');
    spec(channelDecider)
      .given([])
      .when(importChannel({ config: { ...CONFIG, models: [] } }))
      .thenRejects('channel.models_required');
  });

  it.each<[string, Partial<ChannelImported['data']>, string]>([
    ['status 4', { status: 4 as 1 }, 'channel.status_invalid'],
    ['a negative used quota', { usedQuota: -1 }, 'channel.balance_invalid'],
  ])('refuses %s', (_what, over, code) => {
    spec(channelDecider).given([]).when(importChannel(over)).thenRejects(code);
  });

  it('decides nothing when the channel was imported already (a repeated import)', () => {
    spec(channelDecider).given([imported()]).when(importChannel()).then([]);
  });

  it('refuses a stream that holds another channel', () => {
    spec(channelDecider)
      .given([{ ...imported(), data: { ...facts(), channelId: 8 } }])
      .when(importChannel())
      .thenRejects('channel.already_exists');
  });

  it('folds into a live channel with its status, balance and test figures', () => {
    const state = evolveChannel(initialChannelState, imported({ status: 3, statusReason: 'x' }));
    expect(state).toMatchObject({
      exists: true,
      deleted: false,
      channelId: 7,
      status: 3,
      statusReason: 'x',
      balance: 12.5,
      responseTimeMs: 420,
      key: sealed,
    });
  });

  it('an imported, automatically disabled channel can be enabled again by the system', () => {
    spec(channelDecider)
      .given([imported({ status: 3 })])
      .when({ type: 'EnableChannelAutomatically' })
      .then([
        {
          type: 'ChannelStatusChanged',
          data: {
            channelId: 7,
            from: 3,
            to: 1,
            reason: '',
            time: Math.floor(FIXED_NOW.getTime() / 1000),
          },
        },
      ]);
  });
});
