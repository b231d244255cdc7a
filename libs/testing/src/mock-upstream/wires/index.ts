import type { ProviderWire } from './provider-wire';

export type { ProviderWire, WireCall, WireFailure } from './provider-wire';

/** The provider wires the mock speaks besides OpenAI's, tried in this order. */
export const PROVIDER_WIRES: readonly ProviderWire[] = [];
