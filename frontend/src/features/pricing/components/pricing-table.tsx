import { Badge, Group, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconCircleCheckFilled, IconCircleX } from '@tabler/icons-react';
import {
  createColumnHelper,
  functionalUpdate,
  useTable,
  type RowSelectionState,
  type TableOptions,
  type Updater,
} from '@tanstack/react-table';
import { QuotaType, type PricingRowDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTableView, selectableFeatures, selectColumn } from '@/components/data-table';
import type { QuotaDisplay } from '@/utils/format-quota';
import { priceCells } from '../utils/prices';

const column = createColumnHelper<typeof selectableFeatures, PricingRowDto>();

interface PricingTableProps {
  rows: PricingRowDto[];
  loading: boolean;
  /** The group prices are shown for; rows it cannot use are marked. */
  group: string;
  groupRatio: number;
  /** The caller's usable groups: only these are offered as tags to switch to. */
  usable: Readonly<Record<string, string>>;
  display: QuotaDisplay;
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
  onGroupChange: (group: string) => void;
  onCopyName: (name: string) => void;
}

/** The model table: every row the filter keeps, all on one page as new-api shows them. */
export function PricingTable({
  rows,
  loading,
  group,
  groupRatio,
  usable,
  display,
  selection,
  onSelectionChange,
  onGroupChange,
  onCopyName,
}: PricingTableProps) {
  const { t } = useTranslation();

  const columns = useMemo(
    () =>
      column.columns([
        selectColumn(column, {
          all: t('common.selectAll'),
          row: (row) => t('pricing.selectRow', { name: row.model_name }),
        }),
        column.display({
          id: 'available',
          header: t('pricing.columns.available'),
          cell: ({ row }) =>
            row.original.enable_groups.includes(group) ? (
              <Tooltip label={t('pricing.available')}>
                <IconCircleCheckFilled
                  size={20}
                  color="var(--mantine-color-green-6)"
                  aria-label={t('pricing.available')}
                />
              </Tooltip>
            ) : (
              <Tooltip label={t('pricing.unavailable')}>
                <IconCircleX
                  size={20}
                  color="var(--mantine-color-dimmed)"
                  aria-label={t('pricing.unavailable')}
                />
              </Tooltip>
            ),
        }),
        column.accessor('model_name', {
          header: t('pricing.columns.model'),
          cell: ({ getValue }) => (
            <UnstyledButton
              onClick={() => onCopyName(getValue())}
              aria-label={t('pricing.copyName', { name: getValue() })}
            >
              <Badge variant="light" color="green" tt="none" style={{ cursor: 'pointer' }}>
                {getValue()}
              </Badge>
            </UnstyledButton>
          ),
        }),
        column.accessor('quota_type', {
          header: t('pricing.columns.type'),
          cell: ({ getValue }) =>
            getValue() === QuotaType.PerCall ? (
              <Badge variant="light" color="teal">
                {t('pricing.quotaType.perCall')}
              </Badge>
            ) : (
              <Badge variant="light" color="violet">
                {t('pricing.quotaType.ratio')}
              </Badge>
            ),
        }),
        column.accessor('enable_groups', {
          header: t('pricing.columns.groups'),
          cell: ({ getValue }) => (
            <Group gap={4} wrap="wrap">
              {getValue()
                .filter((name) => Object.hasOwn(usable, name))
                .map((name) =>
                  name === group ? (
                    <Badge key={name} variant="filled" tt="none">
                      {name}
                    </Badge>
                  ) : (
                    <UnstyledButton
                      key={name}
                      onClick={() => onGroupChange(name)}
                      aria-label={t('pricing.viewGroup', { group: name })}
                    >
                      <Badge variant="outline" tt="none" style={{ cursor: 'pointer' }}>
                        {name}
                      </Badge>
                    </UnstyledButton>
                  ),
                )}
            </Group>
          ),
        }),
        column.display({
          id: 'ratio',
          header: t('pricing.columns.ratio'),
          cell: ({ row }) => {
            const perCall = row.original.quota_type === QuotaType.PerCall;
            return (
              <Stack gap={0}>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {t('pricing.modelRatio', {
                    value: perCall ? t('pricing.none') : row.original.model_ratio,
                  })}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {t('pricing.completionRatio', {
                    value: perCall ? t('pricing.none') : row.original.completion_ratio,
                  })}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {t('pricing.groupRatio', { value: groupRatio })}
                </Text>
              </Stack>
            );
          },
        }),
        column.display({
          id: 'price',
          header: t('pricing.columns.price'),
          cell: ({ row }) => {
            const cells = priceCells(row.original, groupRatio, display);
            return cells.mode === 'price' ? (
              <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="price-per-call">
                {t('pricing.perCall', { price: cells.perCall })}
              </Text>
            ) : (
              <Stack gap={0}>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="price-prompt">
                  {t('pricing.prompt', { price: cells.prompt })}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="price-completion">
                  {t('pricing.completion', { price: cells.completion })}
                </Text>
              </Stack>
            );
          },
        }),
      ]),
    [t, group, groupRatio, usable, display, onGroupChange, onCopyName],
  );

  const options: TableOptions<typeof selectableFeatures, PricingRowDto> = {
    features: selectableFeatures,
    columns,
    data: rows,
    getRowId: (row) => row.model_name,
    enableRowRangeSelection: false,
    state: { rowSelection: selection },
    onRowSelectionChange: (updater: Updater<RowSelectionState>) =>
      onSelectionChange(functionalUpdate(updater, selection)),
  };
  const table = useTable(options);

  return (
    <DataTableView
      table={table}
      loading={loading}
      minWidth={960}
      testId="pricing-table"
      rowProps={(row) => {
        const available = row.original.enable_groups.includes(group);
        return {
          'data-testid': `pricing-row-${row.original.model_name}`,
          'data-available': available,
          c: available ? undefined : 'dimmed',
        };
      }}
    />
  );
}
