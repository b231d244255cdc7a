import { Checkbox, Stack, Table, Text, type TableTrProps } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  rowSelectionFeature,
  tableFeatures,
  useTable,
  type ColumnHelper,
  type ReactTable,
  type Row,
  type RowData,
  type TableFeatures,
  type TableOptions,
} from '@tanstack/react-table';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataCards } from './data-cards';
import { TablePager } from './table-pager';

/** Below this width tables turn into cards (one per row). */
export const PHONE_QUERY = '(max-width: 600px)';

/** The features of a table without a selection column (logs, users). */
export const plainFeatures = tableFeatures({});
/** The features of a table with a selection column (tokens, codes, channels). */
export const selectableFeatures = tableFeatures({ rowSelectionFeature });

const NO_ROWS: never[] = [];

/**
 * The set-up every console table shares: rows come from the server one page at a time (TanStack
 * pages nothing: the pager below works from the URL), `undefined` while loading, keyed by id.
 */
export function useServerTable<
  TFeatures extends TableFeatures,
  TData extends RowData & { id: number },
>(
  options: Omit<TableOptions<TFeatures, TData>, 'data' | 'getRowId'> & {
    data: TData[] | undefined;
  },
): ReactTable<TFeatures, TData> {
  const full = {
    ...options,
    data: options.data ?? NO_ROWS,
    getRowId: (row: TData) => String(row.id),
  };
  // TypeScript cannot see that putting back the two omitted keys restores the generic options.
  return useTable(full as unknown as TableOptions<TFeatures, TData>);
}

/** The checkbox column of a selectable table: select all in the header, one per row. */
export function selectColumn<TData extends RowData>(
  column: ColumnHelper<typeof selectableFeatures, TData>,
  labels: { all: string; row: (row: TData) => string },
  /** `page`: only the rows on screen (channels keep a selection across pages). */
  scope: 'all' | 'page' = 'all',
) {
  return column.display({
    id: 'select',
    header: ({ table }) => <SelectAllCheckbox label={labels.all} scope={scope} table={table} />,
    cell: ({ row }) => <SelectRowCheckbox label={labels.row(row.original)} row={row} />,
  });
}

interface SelectAllProps {
  label: string;
  scope: 'all' | 'page';
  table: {
    getIsAllRowsSelected: () => boolean;
    getIsSomeRowsSelected: () => boolean;
    getToggleAllRowsSelectedHandler: () => (event: unknown) => void;
    getIsAllPageRowsSelected: () => boolean;
    getIsSomePageRowsSelected: () => boolean;
    getToggleAllPageRowsSelectedHandler: () => (event: unknown) => void;
  };
}

/** Header cell of a selection column. */
function SelectAllCheckbox({ label, scope, table }: SelectAllProps) {
  const page = scope === 'page';
  return (
    <Checkbox
      aria-label={label}
      checked={page ? table.getIsAllPageRowsSelected() : table.getIsAllRowsSelected()}
      indeterminate={page ? table.getIsSomePageRowsSelected() : table.getIsSomeRowsSelected()}
      onChange={
        page ? table.getToggleAllPageRowsSelectedHandler() : table.getToggleAllRowsSelectedHandler()
      }
    />
  );
}

interface SelectRowProps {
  label: string;
  row: { getIsSelected: () => boolean; getToggleSelectedHandler: () => (event: unknown) => void };
}

/** Body cell of a selection column. */
function SelectRowCheckbox({ label, row }: SelectRowProps) {
  return (
    <Checkbox
      aria-label={label}
      checked={row.getIsSelected()}
      onChange={row.getToggleSelectedHandler()}
    />
  );
}

interface DataTableViewProps<TFeatures extends TableFeatures, TData extends RowData> {
  table: ReactTable<TFeatures, TData>;
  loading: boolean;
  minWidth: number;
  testId: string;
  striped?: boolean;
  /** Per-row attributes: the test id and, where a list asks for it, the greying of inactive rows. */
  rowProps: (row: Row<TFeatures, TData>) => TableTrProps & Record<`data-${string}`, unknown>;
  /** What unfolds under a row (the log's details): nothing while it returns null. */
  detail?: (row: Row<TFeatures, TData>) => ReactNode;
  /** Space left and right in each cell (px); narrower for tables of many columns (the log). */
  cellSpacing?: number;
}

/**
 * The header, rows and "no data" line every console table renders the same way (alone: a list the
 * client holds whole, without a pager, such as the pricing table). Below 600 px the rows are cards.
 */
export function DataTableView<TFeatures extends TableFeatures, TData extends RowData>(
  props: DataTableViewProps<TFeatures, TData>,
) {
  const phone = useMediaQuery(PHONE_QUERY);
  if (phone) return <DataCards {...props} />;
  return <DataTableRows {...props} />;
}

function DataTableRows<TFeatures extends TableFeatures, TData extends RowData>({
  table,
  loading,
  minWidth,
  testId,
  striped = false,
  rowProps,
  detail,
  cellSpacing,
}: DataTableViewProps<TFeatures, TData>) {
  const { t } = useTranslation();
  const rows = table.getRowModel().rows;
  const span = table.getAllLeafColumns().length;
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table
        striped={striped}
        highlightOnHover
        verticalSpacing="xs"
        horizontalSpacing={cellSpacing}
        data-testid={testId}
      >
        <Table.Thead>
          {table.getHeaderGroups().map((group) => (
            <Table.Tr key={group.id}>
              {group.headers.map((header) => (
                <Table.Th key={header.id} style={{ whiteSpace: 'nowrap' }}>
                  <table.FlexRender header={header} />
                </Table.Th>
              ))}
            </Table.Tr>
          ))}
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const unfolded = detail?.(row);
            return (
              <Fragment key={row.id}>
                <Table.Tr {...rowProps(row)}>
                  {row.getAllCells().map((cell) => (
                    <Table.Td key={cell.id}>
                      <table.FlexRender cell={cell} />
                    </Table.Td>
                  ))}
                </Table.Tr>
                {unfolded && (
                  <Table.Tr data-detail-of={row.id}>
                    <Table.Td colSpan={span}>{unfolded}</Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
          {!loading && rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={span}>
                <Text c="dimmed" ta="center" py="md">
                  {t('common.noData')}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Where a server-paged table is: the URL's page and size, and the total when the list has one. */
export interface ServerPaging {
  /** 1-based, as in the URL. */
  page: number;
  pageSize: number;
  /** Rows in all pages; absent for the lists that come without a total (tokens, channels). */
  total?: number;
  /** A new page size starts again at page 1. */
  onPaginationChange: (next: { page: number; pageSize: number }) => void;
}

/**
 * Pages to offer. Without a total a full page means there may be a next one, so the pager offers
 * one page more than it has seen (and never fewer than the page the URL names).
 */
export function pageCountOf(paging: ServerPaging, rowsOnPage: number): number {
  if (paging.total !== undefined) return Math.max(1, Math.ceil(paging.total / paging.pageSize));
  return rowsOnPage >= paging.pageSize ? paging.page + 1 : Math.max(1, paging.page);
}

interface DataTableProps<
  TFeatures extends TableFeatures,
  TData extends RowData,
> extends DataTableViewProps<TFeatures, TData> {
  paging: ServerPaging;
  /** Above the table (the add / copy-selected buttons). */
  toolbar?: ReactNode;
  /** Left of the pager when the list has no total (channels: the page number). */
  summary?: ReactNode;
}

/** A server-paged console table: its toolbar, the rows and the pager below them. */
export function DataTable<TFeatures extends TableFeatures, TData extends RowData>({
  paging,
  toolbar,
  summary,
  ...view
}: DataTableProps<TFeatures, TData>) {
  const { page, pageSize, total, onPaginationChange } = paging;
  return (
    <Stack>
      {toolbar}
      <DataTableView {...view} />
      <TablePager
        total={total}
        summary={summary}
        page={page}
        pageCount={pageCountOf(paging, view.table.getCoreRowModel().rows.length)}
        pageSize={pageSize}
        onPageChange={(next) => onPaginationChange({ page: next, pageSize })}
        onPageSizeChange={(size) => onPaginationChange({ page: 1, pageSize: size })}
      />
    </Stack>
  );
}
