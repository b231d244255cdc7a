import {
  functionalUpdate,
  useTable,
  type RowSelectionState,
  type TableOptions,
  type Updater,
} from '@tanstack/react-table';
import type { PricingRowDto } from '@tollgate/contracts';
import { DataTableView, selectableFeatures } from '@/components/data-table';
import { usePricingColumns, type PricingColumnsSetup } from './pricing-columns';

interface PricingTableProps extends PricingColumnsSetup {
  rows: PricingRowDto[];
  loading: boolean;
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
}

/** The model table: every row the filter keeps, all on one page as new-api shows them. */
export function PricingTable({
  rows,
  loading,
  selection,
  onSelectionChange,
  ...setup
}: PricingTableProps) {
  const columns = usePricingColumns(setup);
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
      // Rows the shown group cannot use are dimmed.
      rowProps={(row) => {
        const available = row.original.enable_groups.includes(setup.group);
        return {
          'data-testid': `pricing-row-${row.original.model_name}`,
          'data-available': available,
          'data-priced': row.original.price_configured !== false,
          c: available ? undefined : 'dimmed',
        };
      }}
    />
  );
}
