/** Every localStorage key the console uses, in one place so nothing collides. */
export const StorageKey = {
  user: 'user',
  status: 'status',
  affCode: 'aff',
  sidebarCollapsed: 'sidebar-collapsed',
  usersPageSize: 'users-page-size',
  tokensPageSize: 'tokens-page-size',
  redemptionsPageSize: 'redemptions-page-size',
  logsPageSize: 'logs-page-size',
  logsLive: 'logs-live',
  channelsPageSize: 'channels-page-size',
  channelsIdSort: 'channels-id-sort',
  language: 'language',
} as const;

export type StorageKeyValue = (typeof StorageKey)[keyof typeof StorageKey];

export function readString(key: StorageKeyValue): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeString(key: StorageKeyValue, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Private mode or a full quota: the console still works, it only forgets.
  }
}

export function removeItem(key: StorageKeyValue): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Same as writeString: forgetting is harmless.
  }
}

export function readJson<T>(key: StorageKeyValue): T | null {
  const raw = readString(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: StorageKeyValue, value: unknown): void {
  writeString(key, JSON.stringify(value));
}
