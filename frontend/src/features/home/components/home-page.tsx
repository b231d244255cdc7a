import { Alert, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RichContent } from '@/components/rich-content';
import { contentQueries } from '../api/content.api';
import { SystemOverview } from './system-overview';

/** `/`: the notice, then the admin's home content or the default overview. */
export function HomePage() {
  const { t } = useTranslation();
  const home = useQuery(contentQueries.home());
  const notice = useQuery(contentQueries.notice());

  return (
    <Stack>
      {notice.data && (
        <Alert title={t('home.notice')} color="blue" variant="light">
          <RichContent content={notice.data} />
        </Alert>
      )}
      {home.isPending ? null : home.data ? <RichContent content={home.data} /> : <SystemOverview />}
    </Stack>
  );
}
