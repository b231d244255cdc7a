import type { ExternalProfile } from './external-profile';

/**
 * Linux DO Connect's `/api/user` answer as an identity. new-api (controller/linuxdo.go) reads id,
 * username, name, active, trust_level and silenced, and refuses only a missing id: so does this
 * (active, trust level and silence are not checked, as there; new-api has no minimum-level option).
 */
export function linuxdoProfile(body: unknown): ExternalProfile | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const record = body as Record<string, unknown>;
  const id = record['id'];
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return null;
  const str = (key: string) => (typeof record[key] === 'string' ? record[key] : '');
  const username = str('username');
  return {
    provider: 'linuxdo',
    externalId: String(id),
    login: username,
    displayName: str('name') || username,
  };
}
