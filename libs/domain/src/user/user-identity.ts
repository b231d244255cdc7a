import type { ExternalProvider } from './user.events';

export type IdentityGuardKind = 'githubid' | 'wechatid' | 'telegramid' | 'oidcsub' | 'linuxdoid';

/** The guard-stream category per provider: `githubid-<id>` holds who owns a GitHub id. */
export const IDENTITY_GUARD_KIND: Readonly<Record<ExternalProvider, IdentityGuardKind>> = {
  github: 'githubid',
  wechat: 'wechatid',
  telegram: 'telegramid',
  oidc: 'oidcsub',
  linuxdo: 'linuxdoid',
};

/** The refusal when the id is bound to someone else (a message code). */
export const IDENTITY_TAKEN_CODE: Readonly<Record<ExternalProvider, string>> = {
  github: 'oauth.github_taken',
  wechat: 'oauth.wechat_taken',
  telegram: 'oauth.telegram_taken',
  oidc: 'oauth.oidc_taken',
  linuxdo: 'oauth.linuxdo_taken',
};

/** The users read-model field showing a provider's bound id. */
export const IDENTITY_FIELD: Readonly<
  Record<ExternalProvider, 'github_id' | 'wechat_id' | 'telegram_id' | 'oidc_id' | 'linux_do_id'>
> = {
  github: 'github_id',
  wechat: 'wechat_id',
  telegram: 'telegram_id',
  oidc: 'oidc_id',
  linuxdo: 'linux_do_id',
};

/**
 * The guard value of an external id: percent-encoded, so any id (an OpenID Connect subject may hold
 * any printable character) makes a well-formed stream name, and two ids never share a guard.
 */
export function identityGuardValue(externalId: string): string {
  return encodeURIComponent(externalId.trim());
}
