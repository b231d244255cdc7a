import type { SealedSecret } from '../options/options.events';
import type { ChannelConfig, ChannelEvent } from './channel.events';

export interface ChannelState {
  readonly exists: boolean;
  readonly deleted: boolean;
  readonly channelId: number;
  readonly config: ChannelConfig;
  readonly key: SealedSecret;
  readonly status: number;
  readonly statusReason: string;
  readonly statusTime: number;
  readonly createdTime: number;
  readonly responseTimeMs: number;
  readonly testTime: number;
  readonly balance: number;
  readonly balanceUpdatedTime: number;
}

export const EMPTY_CHANNEL_CONFIG: ChannelConfig = {
  type: 1,
  name: '',
  baseUrl: '',
  other: '',
  models: [],
  groups: ['default'],
  modelMapping: '',
  statusCodeMapping: '',
  priority: 0,
  weight: 0,
  autoBan: true,
  testModel: '',
  openaiOrganization: '',
  maxInputTokens: 0,
  tag: '',
  setting: '',
  paramOverride: '',
};

export const initialChannelState: ChannelState = {
  exists: false,
  deleted: false,
  channelId: 0,
  config: EMPTY_CHANNEL_CONFIG,
  key: { cipher: '', hash: '' },
  status: 0,
  statusReason: '',
  statusTime: 0,
  createdTime: 0,
  responseTimeMs: 0,
  testTime: 0,
  balance: 0,
  balanceUpdatedTime: 0,
};

export function evolveChannel(state: ChannelState, event: ChannelEvent): ChannelState {
  switch (event.type) {
    case 'ChannelCreated':
      return {
        ...initialChannelState,
        exists: true,
        channelId: event.data.channelId,
        // Defaults for the fields events recorded before them lack.
        config: { ...EMPTY_CHANNEL_CONFIG, ...event.data.config },
        key: event.data.key,
        status: event.data.status,
        createdTime: event.data.createdTime,
      };
    case 'ChannelUpdated':
      return {
        ...state,
        config: { ...state.config, ...event.data.changes },
        key: event.data.key ?? state.key,
      };
    case 'ChannelStatusChanged':
      return {
        ...state,
        status: event.data.to,
        statusReason: event.data.reason,
        statusTime: event.data.time,
      };
    case 'ChannelTested':
      return { ...state, responseTimeMs: event.data.responseTimeMs, testTime: event.data.testTime };
    case 'ChannelBalanceUpdated':
      return {
        ...state,
        balance: event.data.balance,
        balanceUpdatedTime: event.data.updatedTime,
      };
    case 'ChannelDeleted':
      return { ...state, deleted: true };
    case 'ChannelImported': {
      const d = event.data;
      return {
        exists: true,
        deleted: false,
        channelId: d.channelId,
        config: { ...EMPTY_CHANNEL_CONFIG, ...d.config },
        key: d.key,
        status: d.status,
        statusReason: d.statusReason,
        statusTime: d.statusTime,
        createdTime: d.createdTime,
        responseTimeMs: d.responseTimeMs,
        testTime: d.testTime,
        balance: d.balance,
        balanceUpdatedTime: d.balanceUpdatedTime,
      };
    }
  }
}
