import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { userDecider } from '@tollgate/domain';
import { ReadYourWrites } from '../infrastructure/read-your-writes';
import { SecretBox } from '../infrastructure/secret-box';
import { StreamCommands } from '../infrastructure/stream-commands';
import { OptionsCache } from '../options/options.cache';
import { ApiError } from '../shared/api-error';
import type { RequestMeta } from '../shared/request-meta';
import { NoticeDelivery } from './notice-delivery';
import type { UserSettingBody } from './notices.dto';
import { webhookAddressProblem } from './webhook';

export class SaveNotificationSettingsCommand extends Command<void> {
  constructor(
    readonly userId: number,
    readonly body: UserSettingBody,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/**
 * A user saves their notification settings (new-api's `PUT /api/user/setting`): the webhook
 * address is checked (no private address unless WebhookAllowPrivateAddresses), a new secret is
 * sealed (absent keeps the saved one), and the whole set goes to the user's stream.
 */
@CommandHandler(SaveNotificationSettingsCommand)
export class SaveNotificationSettingsHandler implements ICommandHandler<SaveNotificationSettingsCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly box: SecretBox,
    private readonly options: OptionsCache,
    private readonly readYourWrites: ReadYourWrites,
    private readonly delivery: NoticeDelivery,
  ) {}

  async execute({ userId, body, meta }: SaveNotificationSettingsCommand): Promise<void> {
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
      `user-${userId}`,
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
  }
}
