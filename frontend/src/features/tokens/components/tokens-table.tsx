import { Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { TOKEN_NEVER_EXPIRES, TokenStatus, type TokenDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AddCopyToolbar } from '@/components/add-copy-toolbar';
import {
  DataTable,
  selectableFeatures,
  selectColumn,
  useServerTable,
  type ServerPaging,
} from '@/components/data-table';
import { QuotaBalance, useQuotaFormatter } from '@/features/status';
import { formatDateTime } from '@/utils/date-time';
import { BudgetUse } from './budget-use';
import { TokenActions } from './token-actions';
import { TokenStatusTag } from './token-status-tag';

const column = createColumnHelper<typeof selectableFeatures, TokenDto>();

interface TokensTableProps {
  rows: TokenDto[] | undefined;
  /** Without a total: the token list is a bare array (spec 001 §7). */
  paging: Omit<ServerPaging, 'total'>;
  loading: boolean;
  onAdd: () => void;
  onEdit: (token: TokenDto) => void;
}

export function TokensTable({ rows, paging, loading, onAdd, onEdit }: TokensTableProps) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();

  const columns = useMemo(
    () =>
      column.columns([
        selectColumn(column, {
          all: t('common.selectAll'),
          row: (token) => t('tokens.selectRow', { name: token.name }),
        }),
        column.accessor('name', {
          header: t('tokens.columns.name'),
          cell: ({ getValue }) => (
            <Text size="sm" fw={500}>
              {getValue()}
            </Text>
          ),
        }),
        column.accessor('status', {
          header: t('tokens.columns.status'),
          cell: ({ row }) => <TokenStatusTag token={row.original} />,
        }),
        column.accessor('used_quota', {
          header: t('tokens.columns.used'),
          cell: ({ getValue }) => formatQuota(getValue()),
        }),
        column.accessor('remain_quota', {
          header: t('tokens.columns.remain'),
          cell: ({ row }) =>
            row.original.unlimited_quota ? (
              t('tokens.unlimited')
            ) : (
              <QuotaBalance quota={row.original.remain_quota} />
            ),
        }),
        column.accessor('period_quota', {
          header: t('tokens.columns.budget'),
          cell: ({ row }) => (
            <BudgetUse
              budget={row.original}
              testId={`token-budget-${row.original.name}`}
              fallback={t('tokens.period.none')}
            />
          ),
        }),
        column.accessor('created_time', {
          header: t('tokens.columns.created'),
          cell: ({ getValue }) => formatDateTime(getValue()),
        }),
        column.accessor('expired_time', {
          header: t('tokens.columns.expires'),
          cell: ({ getValue }) =>
            getValue() === TOKEN_NEVER_EXPIRES
              ? t('tokens.neverExpires')
              : formatDateTime(getValue()),
        }),
        column.display({
          id: 'actions',
          header: t('tokens.columns.actions'),
          cell: ({ row }) => <TokenActions token={row.original} onEdit={onEdit} />,
        }),
      ]),
    [t, formatQuota, onEdit],
  );

  const table = useServerTable({ features: selectableFeatures, columns, data: rows });

  return (
    <DataTable
      table={table}
      paging={paging}
      loading={loading}
      minWidth={900}
      testId="tokens-table"
      toolbar={
        <AddCopyToolbar
          addLabel={t('tokens.add')}
          onAdd={onAdd}
          copyLabel={t('tokens.copySelected')}
          noneSelected={t('tokens.selectAtLeastOne')}
          selected={() => table.getSelectedRowModel().rows.map((row) => row.original)}
          line={(token) => `${token.name}    sk-${token.key}`}
        />
      }
      rowProps={(row) => {
        const inactive = row.original.status !== TokenStatus.Enabled;
        return {
          'data-testid': `token-row-${row.original.name}`,
          'data-inactive': inactive || undefined,
          // Spec 001 §2: rows that are not enabled are greyed.
          bg: inactive ? 'var(--mantine-color-default-hover)' : undefined,
          c: inactive ? 'dimmed' : undefined,
        };
      }}
    />
  );
}
