import { ActionIcon, Group, NumberInput, Select, Table, Text, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PriceRow } from '../../utils/price-table';

/** Rows shown at once; the search finds the others. */
const SHOWN_ROWS = 50;

interface PriceTableProps {
  readonly rows: readonly PriceRow[];
  /** Models added to be priced: shown first, their empty value marked. */
  readonly pending: readonly string[];
  readonly disabled: boolean;
  readonly onChange: (row: PriceRow) => void;
  readonly onRemove: (model: string) => void;
}

const numberOrNull = (value: string | number) =>
  typeof value === 'number' ? value : value.trim() === '' ? null : Number(value);

/** ModelRatio, CompletionRatio and ModelPrice as one editable table: one row per model. */
export function PriceTable({ rows, pending, disabled, onChange, onRemove }: PriceTableProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const matching = rows.filter((row) => row.model.toLowerCase().includes(needle));
  const first = (row: PriceRow) => (pending.includes(row.model) ? 0 : 1);
  const shown = [...matching].sort((a, b) => first(a) - first(b)).slice(0, SHOWN_ROWS);
  return (
    <>
      <TextInput
        label={t('options.prices.search')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={360}
      />
      <Table.ScrollContainer minWidth={640}>
        <Table striped verticalSpacing={4} data-testid="price-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('options.prices.model')}</Table.Th>
              <Table.Th w={130}>{t('options.prices.kind')}</Table.Th>
              <Table.Th w={170}>{t('options.prices.value')}</Table.Th>
              <Table.Th w={150}>{t('options.prices.completion')}</Table.Th>
              <Table.Th w={48} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row) => (
              <PriceTableRow
                key={row.model}
                row={row}
                disabled={disabled}
                onChange={onChange}
                onRemove={onRemove}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {matching.length > shown.length && (
        <Text size="sm" c="dimmed">
          {t('options.prices.more', { count: matching.length - shown.length })}
        </Text>
      )}
    </>
  );
}

interface RowProps {
  readonly row: PriceRow;
  readonly disabled: boolean;
  readonly onChange: (row: PriceRow) => void;
  readonly onRemove: (model: string) => void;
}

function PriceTableRow({ row, disabled, onChange, onRemove }: RowProps) {
  const { t } = useTranslation();
  const perCall = row.kind === 'price';
  return (
    <Table.Tr data-testid={`price-row-${row.model}`}>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {row.model}
        </Text>
      </Table.Td>
      <Table.Td>
        <Select
          size="xs"
          aria-label={t('options.prices.kindOf', { model: row.model })}
          allowDeselect={false}
          disabled={disabled}
          data={[
            { value: 'ratio', label: t('options.prices.ratio') },
            { value: 'price', label: t('options.prices.perCall') },
          ]}
          value={row.kind}
          onChange={(kind) => kind && onChange({ ...row, kind: kind })}
        />
      </Table.Td>
      <Table.Td>
        <NumberInput
          size="xs"
          aria-label={t(perCall ? 'options.prices.priceOf' : 'options.prices.ratioOf', {
            model: row.model,
          })}
          min={0}
          decimalScale={6}
          prefix={perCall ? '$' : undefined}
          disabled={disabled}
          error={row.value === null ? t('options.prices.required') : undefined}
          value={row.value ?? ''}
          onChange={(value) => onChange({ ...row, value: numberOrNull(value) })}
        />
      </Table.Td>
      <Table.Td>
        <NumberInput
          size="xs"
          aria-label={t('options.prices.completionOf', { model: row.model })}
          min={0}
          decimalScale={6}
          placeholder={perCall ? '—' : '1'}
          disabled={disabled || perCall}
          value={perCall ? '' : (row.completion ?? '')}
          onChange={(value) => onChange({ ...row, completion: numberOrNull(value) })}
        />
      </Table.Td>
      <Table.Td>
        <Group justify="flex-end">
          <ActionIcon
            variant="subtle"
            color="red"
            disabled={disabled}
            aria-label={t('options.prices.remove', { model: row.model })}
            onClick={() => onRemove(row.model)}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
