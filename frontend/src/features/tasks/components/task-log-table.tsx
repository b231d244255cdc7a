import type { TableOptions } from '@tanstack/react-table';
import { TASK_PAGE_SIZE } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { DataTableView, pageCountOf, plainFeatures, useServerTable } from '@/components/data-table';
import { TablePager } from '@/components/table-pager';
import type { TaskLog } from '../hooks/use-task-log';

interface TaskLogTableProps<R extends { id: number }> {
  log: TaskLog<R>;
  columns: TableOptions<typeof plainFeatures, R>['columns'];
  testId: string;
  /** Each row's test id is `${rowTestId}-${row id}`. */
  rowTestId: string;
}

/**
 * The shell both task logs share: the scrolling table with its "no data" line, then the console's
 * pager (the lists come without a total and in pages of a fixed size).
 */
export function TaskLogTable<R extends { id: number }>({
  log,
  columns,
  testId,
  rowTestId,
}: TaskLogTableProps<R>) {
  const { t } = useTranslation();
  const table = useServerTable({ features: plainFeatures, columns, data: log.list.data });
  const rows = log.list.data?.length ?? 0;
  const paging = { page: log.page, pageSize: TASK_PAGE_SIZE, onPaginationChange: () => undefined };
  return (
    <>
      <DataTableView
        table={table}
        loading={log.list.isFetching}
        // Admins get the channel column.
        minWidth={log.admin ? 1500 : 1400}
        testId={testId}
        striped
        rowProps={(row) => ({ 'data-testid': `${rowTestId}-${row.original.id}` })}
      />
      <TablePager
        summary={t('tasks.page', { page: log.page })}
        page={log.page}
        pageCount={log.list.isPlaceholderData ? log.page : pageCountOf(paging, rows)}
        pageSize={TASK_PAGE_SIZE}
        onPageChange={log.onPage}
      />
    </>
  );
}
