import { Alert, Center, Divider, Group, Loader, Pagination, Stack, Text } from '@mantine/core';
import type { PageOf } from '@tollgate/contracts';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { HistoryItem } from '../api/history.api';
import { HistoryEntry } from './history-entry';

interface HistoryPageViewProps {
  data: PageOf<HistoryItem> | undefined;
  showEntity?: boolean;
  loading: boolean;
  /** The failure's message, when the page could not be read. */
  error: string | null;
  page: number;
  onPage: (page: number) => void;
}

/** A page of history, newest first, with a pager when there is more than one page. */
export function HistoryPageView({
  data,
  showEntity,
  loading,
  error,
  page,
  onPage,
}: HistoryPageViewProps) {
  const { t } = useTranslation();
  if (error !== null)
    return (
      <Alert color="red" title={t('history.loadFailed')}>
        {error}
      </Alert>
    );
  if (!data)
    return (
      <Center py="lg">
        <Loader size="sm" />
      </Center>
    );
  const pages = Math.max(1, Math.ceil(data.total / Math.max(1, data.page_size)));
  return (
    <Stack gap="sm" data-testid="history-list" aria-busy={loading}>
      {data.items.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          {t('history.empty')}
        </Text>
      ) : (
        data.items.map((item, index) => (
          <Fragment key={`${item.time}-${item.request_id ?? ''}-${index}`}>
            {index > 0 && <Divider />}
            <HistoryEntry item={item} showEntity={showEntity} />
          </Fragment>
        ))
      )}
      {pages > 1 && (
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" c="dimmed">
            {t('common.total', { count: data.total })}
          </Text>
          <Pagination
            size="sm"
            total={pages}
            value={Math.min(page, pages)}
            onChange={onPage}
            getControlProps={(control) => ({ 'aria-label': t(`common.pager.${control}`) })}
          />
        </Group>
      )}
    </Stack>
  );
}
