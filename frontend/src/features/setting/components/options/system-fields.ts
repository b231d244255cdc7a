import type { FieldSpec } from '../../utils/option-form';

/** System tab sections (spec 000 §2 "System tab"). */
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

/** Tollgate's generic OpenID Connect provider (issue 12, "go beyond"). */
export const OIDC_FIELDS: readonly FieldSpec[] = [
  { key: 'OidcDiscoveryUrl', kind: 'address' },
  { key: 'OidcDisplayName', kind: 'text' },
  { key: 'OidcClientId', kind: 'text' },
  { key: 'OidcClientSecret', kind: 'secret' },
  { key: 'OidcEnabled', kind: 'switch' },
];

/** SMTP over port 465 is implicit TLS: the form turns SSL on and keeps it on. */
export const SSL_PORT = '465';
