import type { TableOptions } from '@tanstack/react-table';
import { DataTableView, plainFeatures, useServerTable } from '@/components/data-table';
import type { TaskLog } from '../hooks/use-task-log';
import { TasksPager } from './tasks-pager';

interface TaskLogTableProps<R extends { id: number }> {
  log: TaskLog<R>;
  columns: TableOptions<typeof plainFeatures, R>['columns'];
  testId: string;
  /** Each row's test id is `${rowTestId}-${row id}`. */
  rowTestId: string;
}

/**
 * The shell both task logs share: the scrolling table with its "no data" line, then the
 * previous / next pager (the lists come without a total).
 */
export function TaskLogTable<R extends { id: number }>({
  log,
  columns,
  testId,
  rowTestId,
}: TaskLogTableProps<R>) {
  const table = useServerTable({ features: plainFeatures, columns, data: log.list.data });
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
      <TasksPager
        page={log.page}
        rows={log.list.data?.length ?? 0}
        loading={log.list.isPlaceholderData}
        onPage={log.onPage}
      />
    </>
  );
}
