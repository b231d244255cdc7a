import { createColumnHelper } from '@tanstack/react-table';
import type { PricingRowDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { selectColumn, type selectableFeatures } from '@/components/data-table';
import type { QuotaDisplay } from '@/utils/format-quota';
import {
  AvailableIcon,
  GroupTags,
  ModelNameBadge,
  PriceCell,
  QuotaTypeBadge,
  RatioCell,
  unpriced,
} from './pricing-cells';

const column = createColumnHelper<typeof selectableFeatures, PricingRowDto>();

export interface PricingColumnsSetup {
  /** The group prices are shown for. */
  group: string;
  groupRatio: number;
  /** The caller's usable groups: only these are offered as tags to switch to. */
  usable: Readonly<Record<string, string>>;
  display: QuotaDisplay;
  onGroupChange: (group: string) => void;
  onCopyName: (name: string) => void;
}

/** The model table's columns, made again when the language, the group or the display changes. */
export function usePricingColumns(setup: PricingColumnsSetup) {
  const { group, groupRatio, usable, display, onGroupChange, onCopyName } = setup;
  const { t } = useTranslation();

  return useMemo(
    () =>
      column.columns([
        selectColumn(column, {
          all: t('common.selectAll'),
          row: (row) => t('pricing.selectRow', { name: row.model_name }),
        }),
        column.display({
          id: 'available',
          header: t('pricing.columns.available'),
          cell: ({ row }) => (
            <AvailableIcon
              available={row.original.enable_groups.includes(group)}
              priced={!unpriced(row.original)}
            />
          ),
        }),
        column.accessor('model_name', {
          header: t('pricing.columns.model'),
          cell: ({ getValue }) => <ModelNameBadge name={getValue()} onCopy={onCopyName} />,
        }),
        column.accessor('quota_type', {
          header: t('pricing.columns.type'),
          cell: ({ row }) => <QuotaTypeBadge row={row.original} />,
        }),
        column.accessor('enable_groups', {
          header: t('pricing.columns.groups'),
          cell: ({ getValue }) => (
            <GroupTags
              groups={getValue()}
              current={group}
              usable={usable}
              onSwitch={onGroupChange}
            />
          ),
        }),
        column.display({
          id: 'ratio',
          header: t('pricing.columns.ratio'),
          cell: ({ row }) => <RatioCell row={row.original} groupRatio={groupRatio} />,
        }),
        column.display({
          id: 'price',
          header: t('pricing.columns.price'),
          cell: ({ row }) => (
            <PriceCell row={row.original} groupRatio={groupRatio} display={display} />
          ),
        }),
      ]),
    [t, group, groupRatio, usable, display, onGroupChange, onCopyName],
  );
}
