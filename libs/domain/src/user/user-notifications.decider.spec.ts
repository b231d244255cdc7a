import { Role } from '@tollgate/contracts';
import { spec } from '@tollgate/testing';
import type { ChangeNotificationSettings } from './user.commands';
import { userDecider } from './user.decider';
import type { UserEvent } from './user.events';

const registered = (role: number): UserEvent => ({
  type: 'UserRegistered',
  data: {
    userId: 7,
    username: 'alice',
    displayName: 'Alice',
    passwordHash: 'h',
    role,
    group: 'default',
    email: 'alice@example.com',
    inviterId: 0,
    affCode: 'AbCd',
    source: 'register',
  },
});
const SEALED = { cipher: 'iv.tag.body', hash: 'abc' };
const command = (
  overrides: Partial<ChangeNotificationSettings> = {},
): ChangeNotificationSettings => ({
  type: 'ChangeNotificationSettings',
  notifyType: 'webhook',
  quotaWarningThreshold: 5000,
  webhookUrl: 'https://hooks.example.com/t',
  sealedWebhookSecret: SEALED,
  keepWebhookSecret: false,
  notificationEmail: '',
  acceptAdminAlerts: true,
  ...overrides,
});
const changed = (overrides: Record<string, unknown> = {}): UserEvent => ({
  type: 'UserNotificationSettingsChanged',
  data: {
    userId: 7,
    notifyType: 'webhook',
    quotaWarningThreshold: 5000,
    webhookUrl: 'https://hooks.example.com/t',
    sealedWebhookSecret: SEALED,
    notificationEmail: '',
    acceptAdminAlerts: false,
    ...overrides,
  },
});

describe('userDecider: notification settings', () => {
  it('records the settings; a common user cannot accept admin alerts', () => {
    spec(userDecider)
      .given([registered(Role.Common)])
      .when(command())
      .then([changed()]);
  });

  it('an admin may accept channel alerts', () => {
    spec(userDecider)
      .given([registered(Role.Admin)])
      .when(command())
      .then([changed({ acceptAdminAlerts: true })]);
  });

  it('keeps the sealed secret when asked to, and the same settings again append nothing', () => {
    spec(userDecider)
      .given([registered(Role.Common), changed()])
      .when(command({ sealedWebhookSecret: null, keepWebhookSecret: true }))
      .then([]);
    spec(userDecider)
      .given([registered(Role.Common), changed()])
      .when(
        command({ sealedWebhookSecret: null, keepWebhookSecret: true, quotaWarningThreshold: 1 }),
      )
      .then([changed({ quotaWarningThreshold: 1 })]);
  });

  it('the same secret sealed again (new IV, same hash) appends nothing; a new secret does', () => {
    const resealed = { cipher: 'iv2.tag2.body2', hash: 'abc' };
    spec(userDecider)
      .given([registered(Role.Common), changed()])
      .when(command({ sealedWebhookSecret: resealed }))
      .then([]);
    const other = { cipher: 'iv3.tag3.body3', hash: 'def' };
    spec(userDecider)
      .given([registered(Role.Common), changed()])
      .when(command({ sealedWebhookSecret: other }))
      .then([changed({ sealedWebhookSecret: other })]);
  });

  it('refuses bad values', () => {
    const given = spec(userDecider).given([registered(Role.Common)]);
    given.when(command({ notifyType: 'sms' as never })).thenRejects('notice.notify_type_invalid');
    given.when(command({ quotaWarningThreshold: -1 })).thenRejects('notice.threshold_invalid');
    given.when(command({ quotaWarningThreshold: 1.5 })).thenRejects('notice.threshold_invalid');
    given.when(command({ webhookUrl: 'ftp://x' })).thenRejects('notice.webhook_url_invalid');
    given
      .when(command({ webhookUrl: `https://x/${'a'.repeat(500)}` }))
      .thenRejects('notice.webhook_url_invalid');
    given.when(command({ webhookUrl: '' })).thenRejects('notice.webhook_url_required');
    given.when(command({ notificationEmail: 'nope' })).thenRejects('auth.email_invalid');
  });

  it('mail needs no URL', () => {
    spec(userDecider)
      .given([registered(Role.Common)])
      .when(command({ notifyType: 'email', webhookUrl: '', sealedWebhookSecret: null }))
      .then([changed({ notifyType: 'email', webhookUrl: '', sealedWebhookSecret: null })]);
  });
});
