import type { FieldSpec } from '../../utils/option-form';

/** System tab sections; module constants so forms keep identity. */
export const SERVER_FIELDS: readonly FieldSpec[] = [{ key: 'ServerAddress', kind: 'address' }];

export const WORKER_FIELDS: readonly FieldSpec[] = [
  { key: 'WorkerUrl', kind: 'address' },
  { key: 'WorkerValidKey', kind: 'secret' },
];

export const PAYMENT_FIELDS: readonly FieldSpec[] = [
  { key: 'PayAddress', kind: 'address' },
  { key: 'EpayId', kind: 'text' },
  { key: 'EpayKey', kind: 'secret' },
  { key: 'CustomCallbackAddress', kind: 'address' },
  { key: 'Price', kind: 'number', min: 0 },
  { key: 'MinTopUp', kind: 'number', min: 1, integer: true },
  { key: 'TopupGroupRatio', kind: 'json' },
];

/**
 * Stripe Checkout top-up (docs/topup-stripe.md): keys, the Price object's id, the shown unit price,
 * minimum.
 */
export const STRIPE_FIELDS: readonly FieldSpec[] = [
  { key: 'StripeApiSecret', kind: 'secret' },
  { key: 'StripeWebhookSecret', kind: 'secret' },
  { key: 'StripePriceId', kind: 'text' },
  { key: 'StripeUnitPrice', kind: 'number', min: 0 },
  { key: 'StripeMinTopUp', kind: 'number', min: 1, integer: true },
];

export const LOGIN_FIELDS: readonly FieldSpec[] = [
  { key: 'PasswordLoginEnabled', kind: 'switch' },
  { key: 'PasswordRegisterEnabled', kind: 'switch' },
  { key: 'EmailVerificationEnabled', kind: 'switch' },
  { key: 'GitHubOAuthEnabled', kind: 'switch' },
  { key: 'WeChatAuthEnabled', kind: 'switch' },
  { key: 'TelegramOAuthEnabled', kind: 'switch' },
  { key: 'TurnstileCheckEnabled', kind: 'switch' },
  { key: 'RegisterEnabled', kind: 'switch' },
];

export const EMAIL_DOMAIN_FIELDS: readonly FieldSpec[] = [
  { key: 'EmailDomainWhitelist', kind: 'tags' },
  { key: 'EmailDomainRestrictionEnabled', kind: 'switch' },
  { key: 'EmailAliasRestrictionEnabled', kind: 'switch' },
];

export const SMTP_FIELDS: readonly FieldSpec[] = [
  { key: 'SMTPServer', kind: 'text' },
  { key: 'SMTPPort', kind: 'number', min: 1, integer: true },
  { key: 'SMTPAccount', kind: 'text' },
  { key: 'SMTPFrom', kind: 'text' },
  { key: 'SMTPToken', kind: 'secret' },
  { key: 'SMTPSSLEnabled', kind: 'switch' },
];

export const GITHUB_FIELDS: readonly FieldSpec[] = [
  { key: 'GitHubClientId', kind: 'text' },
  { key: 'GitHubClientSecret', kind: 'secret' },
];

export const WECHAT_FIELDS: readonly FieldSpec[] = [
  { key: 'WeChatServerAddress', kind: 'address' },
  { key: 'WeChatServerToken', kind: 'secret' },
  { key: 'WeChatAccountQRCodeImageURL', kind: 'text' },
];

export const TELEGRAM_FIELDS: readonly FieldSpec[] = [
  { key: 'TelegramBotName', kind: 'text' },
  { key: 'TelegramBotToken', kind: 'secret' },
];

export const TURNSTILE_FIELDS: readonly FieldSpec[] = [
  { key: 'TurnstileSiteKey', kind: 'text' },
  { key: 'TurnstileSecretKey', kind: 'secret' },
];

/**
 * OpenID Connect under new-api's keys (docs/oauth.md). Endpoints left empty are read by the server
 * from the Well-Known document; new-api's own console fills them in the browser instead.
 */
export const OIDC_FIELDS: readonly FieldSpec[] = [
  { key: 'oidc.well_known', kind: 'address' },
  { key: 'oidc.client_id', kind: 'text' },
  { key: 'oidc.client_secret', kind: 'secret' },
  { key: 'oidc.authorization_endpoint', kind: 'address' },
  { key: 'oidc.token_endpoint', kind: 'address' },
  { key: 'oidc.user_info_endpoint', kind: 'address' },
  { key: 'oidc.enabled', kind: 'switch' },
];

/** Linux DO Connect (new-api's LinuxDO* keys). */
export const LINUXDO_FIELDS: readonly FieldSpec[] = [
  { key: 'LinuxDOClientId', kind: 'text' },
  { key: 'LinuxDOClientSecret', kind: 'secret' },
  { key: 'LinuxDOOAuthEnabled', kind: 'switch' },
];

/** SMTP over port 465 is implicit TLS: the form turns SSL on and keeps it on. */
export const SSL_PORT = '465';
