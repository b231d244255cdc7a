import { Button } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createColumnHelper } from '@tanstack/react-table';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders } from '@/test/render';
import { DataTableView, plainFeatures, useServerTable } from './data-table';
import { RowActions } from './row-actions';

interface Fruit {
  id: number;
  name: string;
}

const column = createColumnHelper<typeof plainFeatures, Fruit>();
const columns = column.columns([
  column.accessor('name', { header: 'Name' }),
  column.display({
    id: 'actions',
    header: 'Actions',
    cell: ({ row }) => (
      <RowActions
        primary={<Button size="compact-xs">Copy {row.original.name}</Button>}
        menu={[{ label: 'Delete', color: 'red', onClick: () => deleted(row.original.name) }]}
      />
    ),
  }),
]);
const deleted = vi.fn();

function Fruits() {
  const table = useServerTable({
    features: plainFeatures,
    columns,
    data: [
      { id: 1, name: 'apple' },
      { id: 2, name: 'pear' },
    ],
  });
  return (
    <DataTableView
      table={table}
      loading={false}
      minWidth={400}
      testId="fruits"
      rowProps={(row) => ({ 'data-testid': `fruit-${row.original.name}` })}
      detail={(row) => (row.original.id === 2 ? <span>pear details</span> : null)}
    />
  );
}

/** Makes every media query match (phone width) or none (desktop). */
function atPhoneWidth(phone: boolean) {
  vi.mocked(window.matchMedia).mockImplementation(
    (query: string) =>
      ({
        matches: phone,
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        addListener: () => undefined,
        removeListener: () => undefined,
      }) as unknown as MediaQueryList,
  );
}

describe('console tables', () => {
  it('are tables at desktop width, with a row unfolding its detail below it', () => {
    atPhoneWidth(false);
    mockApi({});
    renderWithProviders(<Fruits />);
    expect(screen.getByTestId('fruits').tagName).toBe('TABLE');
    expect(screen.getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    const detail = screen.getByText('pear details').closest('tr');
    expect(detail?.previousElementSibling).toBe(screen.getByTestId('fruit-pear'));
  });

  it('are cards below 600 px: one per row, labelled values, the actions kept', async () => {
    atPhoneWidth(true);
    mockApi({});
    renderWithProviders(<Fruits />);
    const cards = await screen.findByTestId('fruits');
    expect(cards).toHaveAttribute('data-layout', 'cards');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const pear = screen.getByTestId('fruit-pear');
    expect(within(pear).getByText('Name')).toBeInTheDocument();
    expect(within(pear).getByText('pear details')).toBeInTheDocument();
    expect(within(pear).getByRole('button', { name: 'Copy pear' })).toBeInTheDocument();
    await userEvent.click(within(pear).getByRole('button', { name: '更多操作' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    expect(deleted).toHaveBeenCalledWith('pear');
  });
});
