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
  /** The generic OpenID Connect provider: on, and the label of its login button. */
  oidc_enabled: boolean;
  oidc_display_name: string;
  password_login_enabled: boolean;
  password_register_enabled: boolean;
  register_enabled: boolean;
  page_size: number;
}

export interface OptionDto {
  key: string;
  value: string;
}
