import { Body, Controller, Get, Post, Put, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Role, type NoticeDto } from '@tollgate/contracts';
import { CurrentUser, RequireRole } from '../auth/auth.decorators';
import type { SignedInUser } from '../auth/signed-in-user';
import { ApiError } from '../shared/api-error';
import { ok } from '../shared/envelope';
import { Meta } from '../shared/request-meta.decorator';
import type { RequestMeta } from '../shared/request-meta';
import { NoticeDelivery } from './notice-delivery';
import { NoticeDirectory, type NoticeRecord } from './notice-directory';
import { NoticeListQuery, UserSettingBody } from './notices.dto';
import { SaveNotificationSettingsCommand } from './save-notification-settings.handler';

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
    private readonly commands: CommandBus,
    private readonly delivery: NoticeDelivery,
    private readonly directory: NoticeDirectory,
  ) {}

  @Put('setting')
  @RequireRole(Role.Common)
  async saveSetting(
    @CurrentUser() user: SignedInUser,
    @Body() body: UserSettingBody,
    @Meta() meta: RequestMeta,
  ) {
    await this.commands.execute(new SaveNotificationSettingsCommand(user.id, body, meta));
    return ok();
  }

  /** Sends a test notice over the saved channel and answers how it went. */
  @Post('setting/test')
  @RequireRole(Role.Common)
  async test(@CurrentUser() user: SignedInUser, @Meta() meta: RequestMeta) {
    const outcome = await this.delivery.sendTest(user.id, meta);
    if (!outcome.ok) throw new ApiError('notice.test_failed', { error: outcome.error });
    return ok({ ok: true, status: outcome.status });
  }

  @Get('notices')
  @RequireRole(Role.Common)
  notices(@CurrentUser() user: SignedInUser, @Query() query: NoticeListQuery) {
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
