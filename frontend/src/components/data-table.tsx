import { Checkbox, Table, Text, type TableTrProps } from '@mantine/core';
import {
  functionalUpdate,
  type PaginationState,
  type Row,
  type RowData,
  type TableFeatures,
  type Updater,
} from '@tanstack/react-table';
import type { ReactTable } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';

/**
 * Bridges the URL's 1-based page to TanStack's 0-based pagination state: every server-paged
 * console table keeps no paging state of its own.
 */
export function urlPagination(
  page: number,
  pageSize: number,
  onPaginationChange: (next: { page: number; pageSize: number }) => void,
) {
  const pagination: PaginationState = { pageIndex: page - 1, pageSize };
  return {
    pagination,
    onPaginationChange: (updater: Updater<PaginationState>) => {
      const next = functionalUpdate(updater, pagination);
      onPaginationChange({ page: next.pageIndex + 1, pageSize: next.pageSize });
    },
  };
}

interface SelectAllProps {
  label: string;
  /** `page`: only the rows on screen (channels keep a selection across pages). */
  scope?: 'all' | 'page';
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
export function SelectAllCheckbox({ label, scope = 'all', table }: SelectAllProps) {
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
export function SelectRowCheckbox({ label, row }: SelectRowProps) {
  return (
    <Checkbox
      aria-label={label}
      checked={row.getIsSelected()}
      onChange={row.getToggleSelectedHandler()}
    />
  );
}

interface DataTableViewProps<TFeatures extends TableFeatures, TData extends RowData, TSelected> {
  table: ReactTable<TFeatures, TData, TSelected>;
  columnCount: number;
  loading: boolean;
  minWidth: number;
  testId: string;
  striped?: boolean;
  /** Per-row attributes: the test id and, where the spec asks, the greying of inactive rows. */
  rowProps: (row: Row<TFeatures, TData>) => TableTrProps & Record<`data-${string}`, unknown>;
}

/** The header, rows and "no data" line every console table renders the same way. */
export function DataTableView<TFeatures extends TableFeatures, TData extends RowData, TSelected>({
  table,
  columnCount,
  loading,
  minWidth,
  testId,
  striped = false,
  rowProps,
}: DataTableViewProps<TFeatures, TData, TSelected>) {
  const { t } = useTranslation();
  const rows = table.getRowModel().rows;
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped={striped} highlightOnHover verticalSpacing="xs" data-testid={testId}>
        <Table.Thead>
          {table.getHeaderGroups().map((group) => (
            <Table.Tr key={group.id}>
              {group.headers.map((header) => (
                <Table.Th key={header.id}>
                  <table.FlexRender header={header} />
                </Table.Th>
              ))}
            </Table.Tr>
          ))}
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} {...rowProps(row)}>
              {row.getAllCells().map((cell) => (
                <Table.Td key={cell.id}>
                  <table.FlexRender cell={cell} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
          {!loading && rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={columnCount}>
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
