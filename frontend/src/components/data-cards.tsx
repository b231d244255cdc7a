import { Box, Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactTable, Row, RowData, TableFeatures } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Columns a card places apart from its label / value lines. */
const SELECT = 'select';
const ACTIONS = 'actions';

interface DataCardsProps<TFeatures extends TableFeatures, TData extends RowData> {
  table: ReactTable<TFeatures, TData>;
  loading: boolean;
  testId: string;
  /** The row's test id and greying, as the table row would get them. */
  rowProps: (row: Row<TFeatures, TData>) => object;
  detail?: (row: Row<TFeatures, TData>) => ReactNode;
}

/**
 * A table's rows as cards, for phone widths: the selection box on top, one line per column (its
 * header, then its value), the row's actions at the bottom, always on screen.
 */
export function DataCards<TFeatures extends TableFeatures, TData extends RowData>({
  table,
  loading,
  testId,
  rowProps,
  detail,
}: DataCardsProps<TFeatures, TData>) {
  const { t } = useTranslation();
  const rows = table.getRowModel().rows;
  const headers = new Map(table.getFlatHeaders().map((header) => [header.column.id, header]));
  return (
    <Stack gap="sm" data-testid={testId} data-layout="cards">
      {rows.map((row) => {
        const cells = row.getAllCells();
        const select = cells.find((cell) => cell.column.id === SELECT);
        const actions = cells.find((cell) => cell.column.id === ACTIONS);
        const extra = detail?.(row);
        return (
          <Paper key={row.id} withBorder radius="md" p="sm" {...rowProps(row)}>
            <Stack gap={6}>
              {select && <table.FlexRender cell={select} />}
              {cells
                .filter((cell) => cell.column.id !== SELECT && cell.column.id !== ACTIONS)
                .map((cell) => {
                  const header = headers.get(cell.column.id);
                  return (
                    <Group key={cell.id} justify="space-between" wrap="nowrap" gap="sm">
                      <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                        {header && <table.FlexRender header={header} />}
                      </Text>
                      <Box ta="right" miw={0} style={{ overflowWrap: 'anywhere' }}>
                        <table.FlexRender cell={cell} />
                      </Box>
                    </Group>
                  );
                })}
              {extra}
              {actions && (
                <Box pt={4}>
                  <table.FlexRender cell={actions} />
                </Box>
              )}
            </Stack>
          </Paper>
        );
      })}
      {!loading && rows.length === 0 && (
        <Text c="dimmed" ta="center" py="md">
          {t('common.noData')}
        </Text>
      )}
    </Stack>
  );
}
