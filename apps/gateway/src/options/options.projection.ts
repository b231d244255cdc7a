import type { Projection } from '@tollgate/read-store';
import {
  OPTIONS_EVENT_TYPES,
  upcastOptionEvent,
  type OptionsEvent,
  type SealedSecret,
} from '@tollgate/domain';

export const OPTIONS = 'options';

/** One document per changed option; keys never changed keep their catalogue default. */
export interface OptionDocument {
  _id: string;
  [key: string]: unknown;
  key: string;
  /** Plain value of a non-secret key. */
  value?: string;
  /** Encrypted value of a secret key; null when cleared. */
  sealed?: SealedSecret | null;
  updated_at: string;
}

export const optionsProjection: Projection = {
  name: 'options',
  // 2: documents under new-api's `oidc.*` keys (old OpenID Connect keys upcast).
  version: 2,
  collections: [{ name: OPTIONS }],
  eventTypes: OPTIONS_EVENT_TYPES,
  async apply(event, session) {
    const options = session.collection<OptionDocument>(OPTIONS);
    const e = upcastOptionEvent({ type: event.type, data: event.data } as OptionsEvent);
    if (!e) return;
    const updated_at = event.recordedAt.toISOString();
    if (e.type === 'OptionChanged') {
      await options.put({ _id: e.data.key, key: e.data.key, value: e.data.value, updated_at });
    } else {
      await options.put({ _id: e.data.key, key: e.data.key, sealed: e.data.sealed, updated_at });
    }
  },
};
