import { Alert, Button, Card, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '@/lib/notify';
import { useOptionsForm, type FieldErrors } from '../../hooks/use-options-form';
import type { FieldSpec, OptionKey } from '../../utils/option-form';
import {
  PRICE_KEYS,
  priceRows,
  unpricedModels,
  writeRow,
  type PriceRow,
  type PriceTexts,
} from '../../utils/price-table';
import { OptionField } from './option-field';
import { PriceTable } from './price-table';
import { ResetModelRatios } from './reset-model-ratios';
import { UnpricedModels } from './unpriced-models';

const PRICE_FIELDS: readonly FieldSpec[] = PRICE_KEYS.map((key) => ({ key, kind: 'json' }));

/** Pending models with an empty row, kept in the order they were added. */
function usePending() {
  const [pending, setPending] = useState<string[]>([]);
  const add = (models: readonly string[]) =>
    setPending((previous) => [...new Set([...models, ...previous])]);
  const drop = (model: string) => setPending((previous) => previous.filter((m) => m !== model));
  return { pending, add, drop };
}

/**
 * Model prices: ModelRatio, CompletionRatio and ModelPrice as one table (a row per model), their
 * JSON texts as the advanced view; both edit the same form and saving PUTs the same three keys.
 * Above the table, the models enabled channels serve without a price, to add and fill in.
 */
export function PriceTableCard() {
  const { t } = useTranslation();
  const { form, values, errors, apply, submit, saving } = useOptionsForm({ fields: PRICE_FIELDS });
  const [view, setView] = useState<'table' | 'json'>('table');
  const { pending, add, drop } = usePending();
  const texts: PriceTexts = {
    ModelRatio: values.ModelRatio ?? '{}',
    CompletionRatio: values.CompletionRatio ?? '{}',
    ModelPrice: values.ModelPrice ?? '{}',
  };
  const rows = priceRows(texts, pending);

  const applyTexts = (next: PriceTexts | null) => {
    if (next) for (const key of PRICE_KEYS) if (next[key] !== texts[key]) apply(key, next[key]);
  };
  const change = (row: PriceRow) => {
    applyTexts(writeRow(texts, row));
    if (row.value === null) add([row.model]);
    else drop(row.model);
  };
  const remove = (model: string) => {
    applyTexts(writeRow(texts, { model, kind: 'ratio', value: null, completion: null }, true));
    drop(model);
  };
  const save = () => {
    const open = unpricedModels(pending, texts);
    if (open.length > 0)
      return notifyError(t('options.prices.pendingLeft', { models: open.join(', ') }));
    submit();
  };

  return (
    <Card withBorder padding="lg" component="section" aria-label={t('options.cards.prices')}>
      <Stack gap="md">
        <CardHeader />
        <UnpricedModels
          texts={texts}
          pending={pending}
          onFill={(models) => {
            add(models);
            setView('table');
          }}
        />
        <SegmentedControl
          w="fit-content"
          value={view}
          onChange={(next) => setView(next)}
          data={[
            { value: 'table', label: t('options.prices.table') },
            { value: 'json', label: t('options.prices.json') },
          ]}
        />
        {view === 'json' || !rows ? (
          <PriceJson
            invalid={!rows}
            values={values}
            errors={errors}
            disabled={!form}
            onChange={apply}
          />
        ) : (
          <PriceTable
            rows={rows}
            pending={pending}
            disabled={!form}
            onChange={change}
            onRemove={remove}
          />
        )}
        <Group>
          <Button onClick={save} loading={saving} disabled={!form}>
            {t('options.save')}
          </Button>
        </Group>
        <ResetModelRatios />
      </Stack>
    </Card>
  );
}

function CardHeader() {
  const { t } = useTranslation();
  return (
    <div>
      <Title order={4}>{t('options.cards.prices')}</Title>
      <Text size="sm" c="dimmed">
        {t('options.prices.hint')}
      </Text>
    </div>
  );
}

interface PriceJsonProps {
  readonly invalid: boolean;
  readonly values: Partial<Record<OptionKey, string>>;
  readonly errors: FieldErrors;
  readonly disabled: boolean;
  readonly onChange: (key: OptionKey, value: string) => void;
}

/** The advanced view: the three JSON texts (the only view while one of them is invalid). */
function PriceJson({ invalid, values, errors, disabled, onChange }: PriceJsonProps) {
  const { t } = useTranslation();
  return (
    <>
      {invalid && <Alert color="red">{t('options.prices.invalidJson')}</Alert>}
      {PRICE_FIELDS.map((field) => (
        <OptionField
          key={field.key}
          field={field}
          value={values[field.key] ?? ''}
          error={errors[field.key]}
          disabled={disabled}
          onChange={onChange}
        />
      ))}
    </>
  );
}
