import { Box } from '@mantine/core';
import type { LogDto } from '@tollgate/contracts';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DataTable,
  plainFeatures,
  useServerTable,
  type ServerPaging,
} from '@/components/data-table';
import { useQuotaFormatter } from '@/features/status';
import { LogDetails } from './log-details';
import { logColumns } from './logs-columns';

interface LogsTableProps {
  rows: LogDto[] | undefined;
  paging: ServerPaging;
  loading: boolean;
  /** Adds the channel, user, group and retry columns. */
  admin: boolean;
  onUserClick: (userId: number) => void;
}

/** The log rows, each folding out its details (pricing, content) below it. */
export function LogsTable({ rows, paging, loading, admin, onUserClick }: LogsTableProps) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set());
  const onToggle = useCallback(
    (id: number) =>
      setExpanded((open) => {
        const next = new Set(open);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  const columns = useMemo(
    () => logColumns({ t, admin, formatQuota, onUserClick, expanded, onToggle }),
    [t, admin, formatQuota, onUserClick, expanded, onToggle],
  );
  const table = useServerTable({ features: plainFeatures, columns, data: rows });

  return (
    <DataTable
      table={table}
      paging={paging}
      loading={loading}
      minWidth={admin ? 1000 : 820}
      testId="logs-table"
      striped
      cellSpacing={6}
      rowProps={(row) => ({ 'data-testid': `log-row-${row.original.id}` })}
      detail={(row) =>
        expanded.has(row.original.id) ? (
          <Box pl="xl" data-testid={`log-detail-${row.original.id}`}>
            <LogDetails log={row.original} admin={admin} />
          </Box>
        ) : null
      }
    />
  );
}
