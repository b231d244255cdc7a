import { Text } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { TOKEN_NEVER_EXPIRES, type TokenDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { selectColumn, type selectableFeatures } from '@/components/data-table';
import { QuotaBalance, useQuotaFormatter } from '@/features/status';
import { formatDateTime } from '@/utils/date-time';
import { BudgetUse } from './budget-use';
import { TokenActions } from './token-actions';
import { TokenStatusTag } from './token-status-tag';

const column = createColumnHelper<typeof selectableFeatures, TokenDto>();

/** The token table's columns, made again only when the language or the edit handler changes. */
export function useTokenColumns(onEdit: (token: TokenDto) => void) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();

  return useMemo(
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
}
