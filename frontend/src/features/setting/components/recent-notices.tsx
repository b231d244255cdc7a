import { Badge, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/utils/date-time';
import { noticeQueries, type NoticeDto } from '../api/notify.api';

/** The user's last notices with their delivery attempts (loaded once the user is known). */
export function RecentNotices({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const notices = useQuery({ ...noticeQueries.recent(), enabled });
  const items = notices.data?.items ?? [];
  return (
    <Stack gap={4} data-testid="recent-notices">
      <Text size="sm" fw={600}>
        {t('notify.recent')}
      </Text>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('notify.none')}
        </Text>
      ) : (
        items.map((notice) => <NoticeRow key={notice.notice_id} notice={notice} />)
      )}
    </Stack>
  );
}

function NoticeRow({ notice }: { notice: NoticeDto }) {
  const { t } = useTranslation();
  const state = notice.delivered ? 'delivered' : notice.closed ? 'failed' : 'pending';
  const color = state === 'delivered' ? 'green' : state === 'failed' ? 'red' : 'yellow';
  return (
    <Stack gap={0}>
      <Group gap="xs">
        <Badge size="sm" variant="light">
          {t(`notify.kinds.${notice.kind}`)}
        </Badge>
        <Text size="sm">{formatDateTime(notice.raised_time / 1000)}</Text>
        <Badge size="sm" color={color}>
          {t(`notify.${state}`)}
        </Badge>
      </Group>
      {notice.attempts.map((a) => (
        <Text key={a.attempt} size="xs" c="dimmed">
          {t('notify.attempt', {
            n: a.attempt,
            outcome: a.ok ? `${a.status} OK` : a.error || String(a.status),
          })}
        </Text>
      ))}
    </Stack>
  );
}
