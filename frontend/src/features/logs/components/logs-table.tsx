import type { LogDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DataTable,
  plainFeatures,
  useServerTable,
  type ServerPaging,
} from '@/components/data-table';
import { useQuotaFormatter } from '@/features/status';
import { logColumns } from './logs-columns';

interface LogsTableProps {
  rows: LogDto[] | undefined;
  paging: ServerPaging;
  loading: boolean;
  /** Adds the channel, user and retry columns. */
  admin: boolean;
  onUserClick: (userId: number) => void;
}

export function LogsTable({ rows, paging, loading, admin, onUserClick }: LogsTableProps) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const columns = useMemo(
    () => logColumns({ t, admin, formatQuota, onUserClick }),
    [t, admin, formatQuota, onUserClick],
  );
  const table = useServerTable({ features: plainFeatures, columns, data: rows });

  return (
    <DataTable
      table={table}
      paging={paging}
      loading={loading}
      minWidth={admin ? 1100 : 900}
      testId="logs-table"
      striped
      rowProps={(row) => ({ 'data-testid': `log-row-${row.original.id}` })}
    />
  );
}
