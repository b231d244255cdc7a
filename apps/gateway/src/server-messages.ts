import { AUTH_MESSAGES } from './auth/auth.messages';
import { BILLING_MESSAGES } from './billing/billing.messages';
import { CHANNEL_MESSAGES } from './channels/channels.messages';
import { HISTORY_MESSAGES } from './history/history.messages';
import { HTTP_EDGE_MESSAGES } from './http-edge/http-edge.messages';
import { LOG_MESSAGES } from './logs/logs.messages';
import { MAIL_MESSAGES } from './mail/mail.messages';
import { NOTICE_MESSAGES } from './notices/notices.messages';
import { OAUTH_MESSAGES } from './oauth/oauth.messages';
import { OPTION_MESSAGES } from './options/options.messages';
import { REDEMPTION_MESSAGES } from './redemptions/redemptions.messages';
import { RELAY_MESSAGES } from './relay/relay.messages';
import { SETUP_MESSAGES } from './setup/setup.messages';
import { STATUS_MESSAGES } from './status/status.messages';
import { registerMessages, type MessageTable } from './shared/i18n/messages';
import { TOKEN_MESSAGES } from './tokens/tokens.messages';
import { STRIPE_MESSAGES } from './topup/stripe/stripe.messages';
import { TOPUP_MESSAGES } from './topup/topup.messages';
import { USAGE_DATA_MESSAGES } from './usage-data/usage-data.messages';
import { USER_MESSAGES } from './users/users.messages';

/** Every feature's texts: one line per feature that answers with its own codes. */
export const SERVER_MESSAGES: readonly MessageTable[] = [
  HTTP_EDGE_MESSAGES,
  AUTH_MESSAGES,
  USER_MESSAGES,
  OPTION_MESSAGES,
  CHANNEL_MESSAGES,
  OAUTH_MESSAGES,
  SETUP_MESSAGES,
  MAIL_MESSAGES,
  HISTORY_MESSAGES,
  STRIPE_MESSAGES,
  NOTICE_MESSAGES,
  BILLING_MESSAGES,
  TOKEN_MESSAGES,
  REDEMPTION_MESSAGES,
  TOPUP_MESSAGES,
  LOG_MESSAGES,
  RELAY_MESSAGES,
  USAGE_DATA_MESSAGES,
  STATUS_MESSAGES,
];

/** Puts every feature's texts in the catalogue (the gateway, the CLI and tests call it first). */
export function registerServerMessages(): void {
  registerMessages(...SERVER_MESSAGES);
}
