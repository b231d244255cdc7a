import type { OptionsEvent } from './options.events';

const DISCOVERY_SUFFIX = '/.well-known/openid-configuration';

/**
 * Option keys that were renamed. Tollgate's first OpenID Connect options gave way to
 * new-api's `oidc.*` keys; events keep the names they were written with (the log is never
 * rewritten), so whatever folds or projects options reads them through `upcastOptionEvent`.
 */
const RENAMED: Readonly<Record<string, { key: string; value?: (old: string) => string }>> = {
  OidcEnabled: { key: 'oidc.enabled' },
  OidcClientId: { key: 'oidc.client_id' },
  OidcClientSecret: { key: 'oidc.client_secret' },
  // The old key took the issuer's base or the document itself; well_known is the document's URL.
  OidcDiscoveryUrl: {
    key: 'oidc.well_known',
    value: (old) => (old === '' || old.endsWith(DISCOVERY_SUFFIX) ? old : old + DISCOVERY_SUFFIX),
  },
};

/** Keys that no longer exist and whose events are skipped (new-api has no button label). */
const DROPPED: ReadonlySet<string> = new Set(['OidcDisplayName']);

/** The event as if written under today's key; null when its key was dropped. */
export function upcastOptionEvent<E extends OptionsEvent>(event: E): E | null {
  const key = event.data.key;
  if (DROPPED.has(key)) return null;
  const renamed = RENAMED[key];
  if (!renamed) return event;
  if (event.type === 'SecretOptionChanged')
    return { ...event, data: { ...event.data, key: renamed.key } };
  const map = renamed.value ?? ((v: string) => v);
  const data = event.data;
  return {
    ...event,
    data: { ...data, key: renamed.key, value: map(data.value), previous: map(data.previous) },
  };
}

/** Today's name of a stored option key (read-model documents written before a rename). */
export function currentOptionKey(key: string): string | null {
  if (DROPPED.has(key)) return null;
  return RENAMED[key]?.key ?? key;
}
