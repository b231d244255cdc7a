import type { UserDto } from '@tollgate/contracts';
import {
  DataTable,
  plainFeatures,
  useServerTable,
  type ServerPaging,
} from '@/components/data-table';
import { useUserColumns } from './user-columns';

interface UsersTableProps {
  rows: UserDto[] | undefined;
  paging: ServerPaging;
  loading: boolean;
}

/** Server-paged: the table holds no rows of its own, paging state comes from the URL. */
export function UsersTable({ rows, paging, loading }: UsersTableProps) {
  const columns = useUserColumns();
  const table = useServerTable({ features: plainFeatures, columns, data: rows });

  return (
    <DataTable
      table={table}
      paging={paging}
      loading={loading}
      minWidth={860}
      testId="users-table"
      striped
      rowProps={(row) => ({ 'data-testid': `user-row-${row.original.username}` })}
    />
  );
}
