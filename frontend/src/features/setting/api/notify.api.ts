import { queryOptions } from '@tanstack/react-query';
import type { NoticeDto } from '@tollgate/contracts';
import { http } from '@/lib/http';

/** new-api's `PUT /api/user/setting` body (the secret is write-only: absent keeps it). */
export interface NotifySettingRequest {
  notify_type: 'email' | 'webhook';
  quota_warning_threshold?: number;
  webhook_url: string;
  webhook_secret?: string;
  notification_email: string;
  accept_admin_alerts: boolean;
}

/** The user's `setting` text as `GET /api/user/self` shows it (never the secret). */
export interface NotifySetting {
  notify_type: 'email' | 'webhook';
  quota_warning_threshold?: number;
  webhook_url: string;
  webhook_secret_set: boolean;
  notification_email: string;
  accept_admin_alerts: boolean;
}

export const DEFAULT_NOTIFY_SETTING: NotifySetting = {
  notify_type: 'email',
  webhook_url: '',
  webhook_secret_set: false,
  notification_email: '',
  accept_admin_alerts: false,
};

export type { NoticeDto };

/** Parses the user's `setting` text; '' or anything unreadable is the defaults. */
export function parseNotifySetting(text: string | undefined): NotifySetting {
  if (!text) return DEFAULT_NOTIFY_SETTING;
  try {
    return { ...DEFAULT_NOTIFY_SETTING, ...(JSON.parse(text) as Partial<NotifySetting>) };
  } catch {
    return DEFAULT_NOTIFY_SETTING;
  }
}

export const noticeQueries = {
  all: ['self', 'notices'] as const,
  recent: () =>
    queryOptions({
      queryKey: [...noticeQueries.all, 'recent'] as const,
      queryFn: ({ signal }) =>
        http.get<{ items: NoticeDto[]; total: number }>(
          '/api/user/notices',
          { p: 1, page_size: 5 },
          signal,
        ),
    }),
};

export const notifyApi = {
  save: (body: NotifySettingRequest) => http.put<unknown>('/api/user/setting', body),
  test: () => http.post<{ ok: boolean; status: number }>('/api/user/setting/test', {}),
};
