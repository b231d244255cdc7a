import { queryOptions } from '@tanstack/react-query';
import type { StatusDto } from '@tollgate/contracts';
import { http } from '@/lib/http';
import { readJson, StorageKey, writeJson } from '@/lib/storage';

/** What the console assumes before the first status ever arrives. */
export const DEFAULT_STATUS: StatusDto = {
  version: '',
  start_time: 0,
  system_name: 'Tollgate',
  logo: '/logo.png',
  footer_html: '',
  server_address: '',
  top_up_link: '',
  quota_per_unit: 500_000,
  display_in_currency: true,
  display_token_stat: true,
  enable_drawing: false,
  enable_task: false,
  enable_data_export: false,
  enable_online_topup: false,
  min_topup: 1,
  enable_stripe_topup: false,
  stripe_unit_price: 8,
  stripe_min_topup: 1,
  chats: [],
  data_export_default_time: 'hour',
  default_collapse_sidebar: false,
  mj_notify_enabled: false,
  chat_link: '',
  chat_link2: '',
  email_verification: false,
  turnstile_check: false,
  turnstile_site_key: '',
  github_oauth: false,
  github_client_id: '',
  wechat_login: false,
  wechat_qrcode: '',
  telegram_oauth: false,
  telegram_bot_name: '',
  github_authorize_url: 'https://github.com/login/oauth/authorize',
  oidc_enabled: false,
  oidc_client_id: '',
  oidc_authorization_endpoint: '',
  linuxdo_oauth: false,
  linuxdo_client_id: '',
  linuxdo_authorize_url: 'https://connect.linux.do/oauth2/authorize',
  setup: true,
  password_login_enabled: true,
  password_register_enabled: true,
  register_enabled: true,
  page_size: 10,
  docs_link: '',
  demo_site_enabled: false,
  self_use_mode_enabled: false,
  price: 7.3,
  enable_batch_update: true,
};

async function fetchStatus(): Promise<StatusDto> {
  const status = await http.get<StatusDto>('/api/status');
  // Kept locally so the next start renders the right shell before the call returns.
  writeJson(StorageKey.status, status);
  return status;
}

export const statusQueries = {
  all: ['status'] as const,
  current: () =>
    queryOptions({
      queryKey: [...statusQueries.all],
      queryFn: fetchStatus,
      initialData: () => readJson<StatusDto>(StorageKey.status) ?? undefined,
      // The stored copy only bridges the start: always ask the server once.
      initialDataUpdatedAt: 0,
      staleTime: 5 * 60_000,
      meta: { errorMessage: 'errors.cannotConnect' },
    }),
};
