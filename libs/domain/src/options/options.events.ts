import type { DomainEvent } from '../shared/decider';

/** A secret value as it may be stored: AES-256-GCM ciphertext plus a keyed hash to detect "no change". */
export interface SealedSecret {
  readonly cipher: string;
  readonly hash: string;
}

export type OptionChanged = DomainEvent<
  'OptionChanged',
  { key: string; value: string; previous: string }
>;
/** A secret option changed; its value is never in clear in the log. `sealed` null means cleared. */
export type SecretOptionChanged = DomainEvent<
  'SecretOptionChanged',
  { key: string; sealed: SealedSecret | null }
>;

export type OptionsEvent = OptionChanged | SecretOptionChanged;

export const OPTIONS_EVENT_TYPES: readonly OptionsEvent['type'][] = [
  'OptionChanged',
  'SecretOptionChanged',
];
export const OPTIONS_STREAM = 'options';
