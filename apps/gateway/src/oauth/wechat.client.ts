import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { OptionsCache } from '../options/options.cache';
import { ApiError } from '../shared/api-error';
import type { ExternalProfile } from './external-profile';
import { callProviderJson, isRecord, ProviderCallError, text } from './provider-http';

/**
 * The WeChat server of the one-api family (a separate service bound to an official account): the
 * user sends the account a keyword, gets a code, types it here; `GET <WeChatServerAddress>
 * /api/wechat/user?code=` with `Authorization: <WeChatServerToken>` answers `{success, message,
 * data: <wechat id>}`.
 */
@Injectable()
export class WeChatClient {
  private readonly logger = new Logger('WeChatAuth');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly options: OptionsCache,
  ) {}

  async identify(code: string): Promise<ExternalProfile> {
    const address = this.options.get('WeChatServerAddress');
    let answer: { status: number; body: unknown };
    try {
      answer = await callProviderJson(
        `${address}/api/wechat/user?code=${encodeURIComponent(code)}`,
        { headers: { Authorization: this.options.get('WeChatServerToken') } },
        this.config.oauth.timeoutMs,
      );
    } catch (error) {
      if (!(error instanceof ProviderCallError)) throw error;
      this.logger.warn(`WeChat server unreachable: ${error.message}`);
      throw new ApiError('oauth.wechat_failed');
    }
    const body = answer.body;
    if (answer.status !== 200 || !isRecord(body)) {
      this.logger.warn(`WeChat server answered HTTP ${answer.status}`);
      throw new ApiError('oauth.wechat_failed');
    }
    const wechatId = text(body, 'data').trim();
    if (body['success'] !== true || !wechatId) throw new ApiError('oauth.wechat_code_invalid');
    return { provider: 'wechat', externalId: wechatId, login: '', displayName: 'WeChat User' };
  }
}
