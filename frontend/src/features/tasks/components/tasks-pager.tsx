import { Button, Group, Text } from '@mantine/core';
import { TASK_PAGE_SIZE } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';

interface TasksPagerProps {
  /** 1-based. */
  page: number;
  /** Rows on the shown page: fewer than a full page means there is no next one. */
  rows: number;
  loading: boolean;
  onPage: (page: number) => void;
}

/** The task lists come without a total: previous / next only. */
export function TasksPager({ page, rows, loading, onPage }: TasksPagerProps) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end" gap="sm">
      <Text size="sm" c="dimmed">
        {t('tasks.page', { page })}
      </Text>
      <Button variant="default" size="xs" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('common.pager.previous')}
      </Button>
      <Button
        variant="default"
        size="xs"
        disabled={loading || rows < TASK_PAGE_SIZE}
        onClick={() => onPage(page + 1)}
      >
        {t('common.pager.next')}
      </Button>
    </Group>
  );
}
