import { Inject, Injectable } from '@nestjs/common';
import type { StatusDto } from '@tollgate/contracts';
import { DEFAULT_PAGE_SIZE } from '@tollgate/contracts';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { OidcClient } from '../oauth/oidc.client';
import { OptionsCache } from '../options/options.cache';
import { SetupState } from '../setup/setup-state';
import { stripeEnabled } from '../topup/stripe/stripe-settings';

const START_TIME = Math.floor(Date.now() / 1000);

/** GET /api/status: every status key of both spec files, derived from the options. */
@Injectable()
export class StatusService {
  constructor(
    private readonly options: OptionsCache,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly oidc: OidcClient,
    private readonly setup: SetupState,
  ) {}

  async status(): Promise<StatusDto> {
    const o = this.options;
    return {
      version: this.config.version,
      start_time: START_TIME,
      system_name: o.get('SystemName'),
      logo: o.get('Logo'),
      footer_html: o.get('Footer'),
      server_address: o.get('ServerAddress'),
      top_up_link: o.get('TopUpLink'),
      quota_per_unit: o.number('QuotaPerUnit'),
      display_in_currency: o.bool('DisplayInCurrencyEnabled'),
      display_token_stat: o.bool('DisplayTokenStatEnabled'),
      enable_drawing: o.bool('DrawingEnabled'),
      enable_task: o.bool('TaskEnabled'),
      enable_data_export: o.bool('DataExportEnabled'),
      enable_online_topup:
        o.get('PayAddress') !== '' && o.get('EpayId') !== '' && o.get('EpayKey') !== '',
      min_topup: o.number('MinTopUp'),
      enable_stripe_topup: stripeEnabled(o),
      stripe_unit_price: o.number('StripeUnitPrice'),
      stripe_min_topup: o.number('StripeMinTopUp'),
      chats: o.json<Array<Record<string, string>>>('Chats', []),
      data_export_default_time: o.get('DataExportDefaultTime'),
      default_collapse_sidebar: o.bool('DefaultCollapseSidebar'),
      mj_notify_enabled: o.bool('MjNotifyEnabled'),
      chat_link: o.get('ChatLink'),
      chat_link2: o.get('ChatLink2'),
      email_verification: o.bool('EmailVerificationEnabled'),
      turnstile_check: o.bool('TurnstileCheckEnabled'),
      turnstile_site_key: o.get('TurnstileSiteKey'),
      github_oauth: o.bool('GitHubOAuthEnabled'),
      github_client_id: o.get('GitHubClientId'),
      wechat_login: o.bool('WeChatAuthEnabled'),
      wechat_qrcode: o.get('WeChatAccountQRCodeImageURL'),
      telegram_oauth: o.bool('TelegramOAuthEnabled'),
      telegram_bot_name: o.get('TelegramBotName'),
      github_authorize_url: `${this.config.oauth.githubOAuthUrl}/login/oauth/authorize`,
      oidc_enabled: o.bool('oidc.enabled'),
      oidc_client_id: o.get('oidc.client_id'),
      // new-api's console builds the authorize URL from it; discovered when only well_known is set.
      oidc_authorization_endpoint: o.bool('oidc.enabled')
        ? (await this.oidc.endpoints()).authorization
        : o.get('oidc.authorization_endpoint'),
      linuxdo_oauth: o.bool('LinuxDOOAuthEnabled'),
      linuxdo_client_id: o.get('LinuxDOClientId'),
      linuxdo_authorize_url: `${this.config.oauth.linuxdoOAuthUrl}/oauth2/authorize`,
      setup: await this.setup.isDone(),
      password_login_enabled: o.bool('PasswordLoginEnabled'),
      password_register_enabled: o.bool('PasswordRegisterEnabled'),
      register_enabled: o.bool('RegisterEnabled'),
      page_size: DEFAULT_PAGE_SIZE,
      docs_link: o.get('general_setting.docs_link'),
      demo_site_enabled: o.bool('DemoSiteEnabled'),
      self_use_mode_enabled: o.bool('SelfUseModeEnabled'),
      price: o.number('Price'),
      // new-api turns this on with BATCH_UPDATE_ENABLED; Tollgate always batches usage writes.
      enable_batch_update: true,
    };
  }
}
