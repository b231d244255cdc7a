import type { ChannelAlertFact, NoticeRaised } from '@tollgate/domain';
import { escapeHtml } from '../mail/mail-content';
import type { OutgoingMail } from '../mail/mailer';
import { displayQuota } from '../users/notification-settings';

/** What the options say about the display unit and the console's address. */
export interface NoticeDisplay {
  readonly systemName: string;
  readonly serverAddress: string;
  readonly displayInCurrency: boolean;
  readonly quotaPerUnit: number;
}

export const topUpLink = (serverAddress: string): string =>
  `${serverAddress.replace(/\/+$/, '')}/topup`;

const CHANNEL_STATUS_TEXT: Record<number, string> = {
  1: '已启用',
  2: '已手动禁用',
  3: '已自动禁用',
};

/** The webhook's JSON body: `{type, time, notice_id, ...facts}` (snake_case, like the API). */
export function webhookPayload(notice: NoticeRaised['data'], display: NoticeDisplay) {
  const base = {
    type: notice.kind,
    time: new Date(notice.raisedTime).toISOString(),
    notice_id: notice.noticeId,
    user_id: notice.userId,
  };
  const facts = notice.facts as Partial<{
    balance: number;
    threshold: number;
    alerts: ChannelAlertFact[];
  }>;
  switch (notice.kind) {
    case 'quota_warning':
      return {
        ...base,
        balance: facts.balance ?? 0,
        threshold: facts.threshold ?? 0,
        balance_display: quota(facts.balance ?? 0, display),
        threshold_display: quota(facts.threshold ?? 0, display),
        topup_url: topUpLink(display.serverAddress),
      };
    case 'channel_alert':
      return {
        ...base,
        channels: (facts.alerts ?? []).map((a) => ({
          channel_id: a.channelId,
          channel_name: a.channelName,
          model: a.model,
          status_from: a.from,
          status_to: a.to,
          reason: a.reason,
          time: a.time,
        })),
      };
    case 'test':
      return { ...base, message: `${display.systemName} 通知测试 / notification test` };
  }
}

const quota = (value: number, d: NoticeDisplay) =>
  displayQuota(value, d.displayInCurrency, d.quotaPerUnit);

/** The mail (zh-CN, like one-api's and new-api's reminders). */
export function noticeMail(
  to: string,
  notice: NoticeRaised['data'],
  d: NoticeDisplay,
): OutgoingMail {
  const system = escapeHtml(d.systemName);
  const facts = notice.facts as Partial<{
    balance: number;
    threshold: number;
    alerts: ChannelAlertFact[];
  }>;
  switch (notice.kind) {
    case 'quota_warning': {
      const link = escapeHtml(topUpLink(d.serverAddress));
      return {
        to,
        subject: `${d.systemName} 额度提醒：您的余额已低于 ${quota(facts.threshold ?? 0, d)}`,
        html:
          `<p>您好，您在 ${system} 的剩余额度为 <b>${quota(facts.balance ?? 0, d)}</b>，` +
          `已低于提醒阈值 ${quota(facts.threshold ?? 0, d)}。</p>` +
          `<p>为免服务中断，请及时充值：<a href="${link}">${link}</a></p>`,
      };
    }
    case 'channel_alert': {
      const rows = (facts.alerts ?? [])
        .map(
          (a) =>
            `<li>渠道「${escapeHtml(a.channelName)}」（#${a.channelId}）${CHANNEL_STATUS_TEXT[a.to] ?? a.to}` +
            `${a.model ? `，模型 ${escapeHtml(a.model)}` : ''}` +
            `${a.reason ? `，原因：${escapeHtml(a.reason)}` : ''}` +
            `，时间 ${new Date(a.time * 1000).toISOString()}</li>`,
        )
        .join('');
      return {
        to,
        subject: `${d.systemName} 渠道状态通知（${(facts.alerts ?? []).length} 个渠道）`,
        html: `<p>以下渠道的状态被系统自动更改：</p><ul>${rows}</ul>`,
      };
    }
    case 'test':
      return {
        to,
        subject: `${d.systemName} 通知测试`,
        html: `<p>这是一封来自 ${system} 的测试通知，收到即说明通知设置可用。</p>`,
      };
  }
}
