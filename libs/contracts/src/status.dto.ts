/** GET /api/status data: every status key of both spec files, derived from the options. */
export interface StatusDto {
  version: string;
  start_time: number;
  system_name: string;
  logo: string;
  footer_html: string;
  server_address: string;
  top_up_link: string;
  quota_per_unit: number;
  display_in_currency: boolean;
  display_token_stat: boolean;
  enable_drawing: boolean;
  enable_task: boolean;
  enable_data_export: boolean;
  enable_online_topup: boolean;
  min_topup: number;
  /** Stripe Checkout top-up is usable: StripeApiSecret, StripeWebhookSecret and StripePriceId set. */
  enable_stripe_topup: boolean;
  /** Stripe: currency units per dollar of quota, as shown in the wallet (option StripeUnitPrice). */
  stripe_unit_price: number;
  /** Stripe: the smallest amount (dollars) a Checkout session is created for (StripeMinTopUp). */
  stripe_min_topup: number;
  chats: Array<Record<string, string>>;
  data_export_default_time: string;
  default_collapse_sidebar: boolean;
  mj_notify_enabled: boolean;
  chat_link: string;
  chat_link2: string;
  email_verification: boolean;
  turnstile_check: boolean;
  turnstile_site_key: string;
  github_oauth: boolean;
  github_client_id: string;
  wechat_login: boolean;
  wechat_qrcode: string;
  telegram_oauth: boolean;
  telegram_bot_name: string;
  /** Where the GitHub button sends the browser (GITHUB_OAUTH_URL + /login/oauth/authorize). */
  github_authorize_url: string;
  /** OpenID Connect (new-api's `oidc.*` options): the console builds the authorize URL from these. */
  oidc_enabled: boolean;
  oidc_client_id: string;
  oidc_authorization_endpoint: string;
  /** Linux DO Connect (new-api's LinuxDO* options). */
  linuxdo_oauth: boolean;
  linuxdo_client_id: string;
  /** Where the Linux DO button sends the browser (LINUXDO_OAUTH_URL + /oauth2/authorize). */
  linuxdo_authorize_url: string;
  /** new-api's first-run wizard is done (false while root still has its default password). */
  setup: boolean;
  password_login_enabled: boolean;
  password_register_enabled: boolean;
  register_enabled: boolean;
  page_size: number;
  /** new-api's documentation link (option general_setting.docs_link); '' when none. */
  docs_link: string;
  demo_site_enabled: boolean;
  self_use_mode_enabled: boolean;
  /** Top-up price: currency units per US dollar of quota (option Price). */
  price: number;
  /** Usage is written in batches (group-committed receipts): always true in Tollgate. */
  enable_batch_update: boolean;
}

export interface OptionDto {
  key: string;
  value: string;
}
