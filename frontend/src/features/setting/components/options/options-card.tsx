import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useOptionsForm } from '../../hooks/use-options-form';
import type { FieldSpec, FormValues, OptionKey } from '../../utils/option-form';
import type { optionsZhCN } from '../../locales/zh-cn';
import { OptionField } from './option-field';

type CardName = keyof typeof optionsZhCN.options.cards;
type CardHint = keyof typeof optionsZhCN.options.cardHints;

/** A change that needs the user's word first (turning password login off). */
export interface ChangeConfirmation {
  readonly title: string;
  readonly body: string;
  readonly confirm: string;
}

export interface OptionsCardProps {
  readonly name: CardName;
  readonly fields: readonly FieldSpec[];
  readonly hint?: CardHint;
  /** Columns of the short fields on wide screens. */
  readonly columns?: number;
  /** Follow-up changes of one edit (port 465 turns SSL on). */
  readonly derive?: (values: FormValues) => FormValues;
  /** Fields shown but not editable for these values. */
  readonly locked?: (values: FormValues) => ReadonlySet<OptionKey>;
  readonly confirmChange?: (key: OptionKey, value: string) => ChangeConfirmation | null;
  /** A reason (already translated) not to send anything, given the stored options. */
  readonly precondition?: (server: FormValues) => string | null;
  readonly children?: ReactNode;
}

const WIDE: ReadonlySet<FieldSpec['kind']> = new Set(['textarea', 'json', 'tags']);

/**
 * One settings card: short fields in a grid, then the wide ones (text areas, JSON, tags), then the
 * switches, and a save button that sends only what changed.
 */
export function OptionsCard(props: OptionsCardProps) {
  const { name, fields, hint, columns = 2, derive, locked, confirmChange, precondition } = props;
  const { t } = useTranslation();
  const { form, values, errors, apply, submit, saving } = useOptionsForm({
    fields,
    derive,
    precondition,
  });
  const lockedKeys = locked?.(values) ?? new Set<OptionKey>();

  const change = (key: OptionKey, value: string) => {
    const confirmation = confirmChange?.(key, value);
    if (!confirmation) return apply(key, value);
    modals.openConfirmModal({
      title: confirmation.title,
      children: <Text size="sm">{confirmation.body}</Text>,
      labels: { confirm: confirmation.confirm, cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => apply(key, value),
    });
  };

  const render = (field: FieldSpec) => (
    <OptionField
      key={field.key}
      field={field}
      value={values[field.key] ?? ''}
      error={errors[field.key]}
      disabled={!form || lockedKeys.has(field.key)}
      onChange={change}
    />
  );
  const switches = fields.filter((f) => f.kind === 'switch');
  const short = fields.filter((f) => f.kind !== 'switch' && !WIDE.has(f.kind));
  const wide = fields.filter((f) => WIDE.has(f.kind));

  return (
    <Card withBorder padding="lg" component="section" aria-label={t(`options.cards.${name}`)}>
      <Stack gap="md">
        <CardTitle name={name} hint={hint} />
        {short.length > 0 && (
          <SimpleGrid cols={{ base: 1, sm: Math.min(columns, short.length) }}>
            {short.map(render)}
          </SimpleGrid>
        )}
        {wide.map(render)}
        {switches.length > 0 && (
          <SimpleGrid cols={{ base: 1, sm: Math.min(columns, switches.length) }}>
            {switches.map(render)}
          </SimpleGrid>
        )}
        <Group>
          <Button onClick={submit} loading={saving} disabled={!form}>
            {t('options.save')}
          </Button>
        </Group>
        {props.children}
      </Stack>
    </Card>
  );
}

function CardTitle({ name, hint }: { name: CardName; hint: CardHint | undefined }) {
  const { t } = useTranslation();
  return (
    <div>
      <Title order={4}>{t(`options.cards.${name}`)}</Title>
      {hint && (
        <Text size="sm" c="dimmed">
          {t(`options.cardHints.${hint}`)}
        </Text>
      )}
    </div>
  );
}
