import { Body, Controller, Get, Post, Put, Query } from '@nestjs/common';
import { Role } from '@tollgate/contracts';
import { userDecider } from '@tollgate/domain';
import { CurrentUser, RequireRole } from '../auth/auth.decorators';
import { ReadYourWrites } from '../infrastructure/read-your-writes';
import { SecretBox } from '../infrastructure/secret-box';
import { StreamCommands } from '../infrastructure/stream-commands';
import { OptionsCache } from '../options/options.cache';
import type { UserDocument } from '../projections/user.document';
import { ApiError } from '../shared/api-error';
import { ok } from '../shared/envelope';
import { Meta } from '../shared/request-meta.decorator';
import type { RequestMeta } from '../shared/request-meta';
import { NoticeDelivery } from './notice-delivery';
import { NoticeDirectory, type NoticeRecord } from './notice-directory';
import { NoticeListQuery, UserSettingBody } from './notices.dto';
import { webhookAddressProblem } from './webhook';

/** One notice as its owner lists it (never a secret, never the webhook URL). */
export interface NoticeDto {
  notice_id: string;
  kind: string;
  channel: string;
  facts: unknown;
  raised_time: number;
  delivered: boolean;
  closed: boolean;
  attempts: { attempt: number; ok: boolean; status: number; error: string; time: number }[];
}

const toDto = (n: NoticeRecord): NoticeDto => ({
  notice_id: n.raised.noticeId,
  kind: n.raised.kind,
  channel: n.raised.channel,
  facts: n.raised.facts,
  raised_time: n.raised.raisedTime,
  delivered: n.attempts.some((a) => a.ok),
  closed: n.closed,
  attempts: n.attempts.map(({ attempt, ok: success, status, error, time }) => ({
    attempt,
    ok: success,
    status,
    error,
    time,
  })),
});

/**
 * The signed-in user's notification settings (new-api's `PUT /api/user/setting`), a test notice,
 * and their own notices with every delivery attempt.
 */
@Controller('api/user')
export class NoticesController {
  constructor(
    private readonly store: StreamCommands,
    private readonly box: SecretBox,
    private readonly options: OptionsCache,
    private readonly readYourWrites: ReadYourWrites,
    private readonly delivery: NoticeDelivery,
    private readonly directory: NoticeDirectory,
  ) {}

  @Put('setting')
  @RequireRole(Role.Common)
  async saveSetting(
    @CurrentUser() user: UserDocument,
    @Body() body: UserSettingBody,
    @Meta() meta: RequestMeta,
  ) {
    const webhookUrl = (body.webhook_url ?? '').trim();
    if (webhookUrl !== '') {
      const problem = await webhookAddressProblem(
        webhookUrl,
        this.options.bool('WebhookAllowPrivateAddresses'),
        this.delivery.lookup,
      );
      if (problem === 'invalid') throw new ApiError('notice.webhook_url_invalid');
      if (problem === 'private') throw new ApiError('notice.webhook_private_address');
      if (problem === 'unresolved') throw new ApiError('notice.webhook_unresolved');
    }
    const secret = body.webhook_secret;
    const result = await this.store.execute(
      `user-${user.id}`,
      userDecider,
      {
        type: 'ChangeNotificationSettings',
        notifyType: body.notify_type,
        quotaWarningThreshold: body.quota_warning_threshold ?? null,
        webhookUrl,
        sealedWebhookSecret: secret ? this.box.seal(secret) : null,
        keepWebhookSecret: secret === undefined,
        notificationEmail: (body.notification_email ?? '').trim(),
        acceptAdminAlerts: body.accept_admin_alerts === true,
      },
      meta,
    );
    await this.readYourWrites.waitFor(result.position);
    return ok();
  }

  /** Sends a test notice over the saved channel and answers how it went. */
  @Post('setting/test')
  @RequireRole(Role.Common)
  async test(@CurrentUser() user: UserDocument, @Meta() meta: RequestMeta) {
    const outcome = await this.delivery.sendTest(user.id, meta);
    if (!outcome.ok) throw new ApiError('notice.test_failed', { error: outcome.error });
    return ok({ ok: true, status: outcome.status });
  }

  @Get('notices')
  @RequireRole(Role.Common)
  notices(@CurrentUser() user: UserDocument, @Query() query: NoticeListQuery) {
    const page = Math.max(1, query.p ?? 1);
    const pageSize = query.page_size ?? 10;
    const all = this.directory.noticesOf(user.id);
    return ok({
      items: all.slice((page - 1) * pageSize, page * pageSize).map(toDto),
      total: all.length,
      page,
      page_size: pageSize,
    });
  }
}
