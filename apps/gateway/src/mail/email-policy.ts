import { ApiError } from '../shared/api-error';
import type { OptionsCache } from '../options/options.cache';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** EmailDomainRestrictionEnabled + EmailDomainWhitelist and EmailAliasRestrictionEnabled. */
export function assertEmailAllowed(email: string, options: OptionsCache): void {
  if (!EMAIL_PATTERN.test(email)) throw new ApiError('auth.email_invalid');
  const [local = '', domain = ''] = email.toLowerCase().split('@');
  if (options.bool('EmailDomainRestrictionEnabled')) {
    const allowed = options
      .get('EmailDomainWhitelist')
      .split(',')
      .map((d) => d.trim());
    if (!allowed.includes(domain)) throw new ApiError('auth.email_domain_not_allowed');
  }
  // Like one-api and new-api: '+' tags and '.' (ignored by Gmail) both make aliases of one mailbox.
  if (options.bool('EmailAliasRestrictionEnabled') && /[+.]/.test(local))
    throw new ApiError('auth.email_alias_not_allowed');
}
