import {
  SINGLE_KEY_CHANNEL_FIELDS,
  type ChannelDto,
  type ChannelLastFailureDto,
} from '@tollgate/contracts';
import type { SealedSecret } from '@tollgate/domain';

/** The answer's fields no Tollgate channel has data for: added with their zero values on reads. */
type AnsweredOnly = keyof typeof SINGLE_KEY_CHANNEL_FIELDS;

/** The `channels` read model: the API's ChannelDto plus what searches need (never returned as is). */
export interface ChannelDocument extends Omit<ChannelDto, AnsweredOnly> {
  _id: string;
  [key: string]: unknown;
  /** Keyed hash of the key: a search for the exact key finds its channel; never reversible. */
  key_hash: string;
  /** models / group as arrays, for the routing read model. */
  model_list: string[];
  group_list: string[];
  /** `$all` commit position of the last event applied (idempotent writes without transactions). */
  source_position: number;
}

/** `abilities`: one row per group × model × channel, the console's view of the routing table. */
export interface AbilityDocument {
  _id: string;
  [key: string]: unknown;
  group: string;
  model: string;
  channel_id: number;
  enabled: boolean;
  priority: number;
  weight: number;
  tag: string;
}

/**
 * `channel_keys`: the sealed keys a channel has had (never in clear), with which the projection
 * masks a key quoted in a status reason recorded before the relay masked keys. Never served.
 */
export interface ChannelKeysDocument {
  _id: string;
  [key: string]: unknown;
  sealed: SealedSecret[];
}

export const CHANNELS = 'channels';
export const ABILITIES = 'abilities';
export const CHANNEL_KEYS = 'channel_keys';

/** A channel that never failed (and documents projected before failures were kept). */
const NO_FAILURE: Required<ChannelLastFailureDto> = {
  last_failure_time: 0,
  last_failure_reason: '',
  last_failure_status: 0,
  test_failed: false,
};

export function toChannelDto(doc: ChannelDocument): ChannelDto {
  const {
    _id: _ignoredId,
    key_hash: _hash,
    model_list: _models,
    group_list: _groups,
    source_position: _position,
    ...dto
  } = doc;
  // The key is write-only: answers always carry it empty.
  // Documents written before channels had an override carry none.
  return {
    ...NO_FAILURE,
    ...dto,
    ...SINGLE_KEY_CHANNEL_FIELDS,
    param_override: dto.param_override ?? '',
    key: '',
  };
}
