import type { SealedSecret } from '../options/options.events';
import type { ChannelImported } from './channel.events';
import type { ChannelChanges } from './channel.rules';
import type { ChannelState } from './channel.state';

/**
 * Commands carry the clear key only to check its format; events get `sealedKey`, sealed by the
 * handler before deciding (sealing uses a random IV, so it cannot happen in here).
 */
export interface CreateChannel {
  readonly type: 'CreateChannel';
  readonly channelId: number;
  readonly config: ChannelChanges;
  readonly key: string;
  readonly sealedKey: SealedSecret;
  /** 2 creates it disabled; default enabled. */
  readonly status?: number;
}

/** Full or partial update: absent fields keep their value; an absent key keeps the stored one. */
export interface UpdateChannel {
  readonly type: 'UpdateChannel';
  readonly changes: ChannelChanges;
  readonly key?: string;
  readonly sealedKey?: SealedSecret;
  /** 1 enable, 2 disable (by hand). */
  readonly status?: number;
  /**
   * The editor may point the stored key at a new target (root). Anyone else who changes where the
   * key is sent (KEY_TARGET_FIELDS) must enter a key in the same update: an administrator must not
   * collect root's key by aiming its channel at their own server. Absent = may not.
   */
  readonly mayRetargetStoredKey?: boolean;
}

/** Decided on the new channel's stream from the source's folded state. */
export interface CopyChannel {
  readonly type: 'CopyChannel';
  readonly channelId: number;
  readonly source: ChannelState;
  readonly suffix: string;
  readonly resetBalance: boolean;
}

export interface DeleteChannel {
  readonly type: 'DeleteChannel';
}

/** The relay or a test saw a disqualifying error; no event unless the channel is enabled. */
export interface DisableChannelAutomatically {
  readonly type: 'DisableChannelAutomatically';
  readonly reason: string;
  /** The model the failing call or test used, when known (the channel alert names it). */
  readonly model?: string;
}

/** Only a channel the system disabled (status 3) comes back by itself. */
export interface EnableChannelAutomatically {
  readonly type: 'EnableChannelAutomatically';
}

export interface RecordChannelTest {
  readonly type: 'RecordChannelTest';
  readonly model: string;
  readonly success: boolean;
  readonly responseTimeMs: number;
  readonly message: string;
  /** A failed test's upstream HTTP status (0 or absent: a network failure or a timeout). */
  readonly status?: number;
}

export interface RecordChannelBalance {
  readonly type: 'RecordChannelBalance';
  readonly balance: number;
}

/**
 * The importer's: the whole channel as the source had it (key sealed by the caller). A stream that
 * already holds this channel decides nothing (a repeated or resumed import).
 */
export interface ImportChannel {
  readonly type: 'ImportChannel';
  readonly channel: ChannelImported['data'];
}

export type ChannelCommand =
  | CreateChannel
  | ImportChannel
  | UpdateChannel
  | CopyChannel
  | DeleteChannel
  | DisableChannelAutomatically
  | EnableChannelAutomatically
  | RecordChannelTest
  | RecordChannelBalance;
