import {
  Button,
  Card,
  Group,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifyInfo } from '@/lib/notify';
import { useOptionValues } from '../../hooks/use-option-values';
import { useSaveOptions } from '../../hooks/use-save-options';
import {
  changedOptions,
  fieldProblem,
  pickFields,
  rebase,
  type FieldSpec,
  type FormState,
  type FormValues,
  type OptionHintKey,
  type OptionKey,
} from '../../utils/option-form';
import type { optionsZhCN } from '../../locales/zh-cn';
import { textLang } from '@/utils/text-lang';

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
const HINTED = new Set<string>([
  'QuotaPerUnit',
  'SensitiveWords',
  'ChannelDisableThreshold',
  'QuotaRemindThreshold',
  'AutomaticDisableKeywords',
  'Chats',
  'ModelRatio',
  'CompletionRatio',
  'ModelMaxOutputTokens',
  'PreConsumedQuota',
  'ModelPrice',
  'GroupRatio',
  'UserUsableGroups',
  'CacheRatio',
  'CacheCreationRatio',
  'global.pass_through_request_enabled',
  'gemini.safety_settings',
  'gemini.version_settings',
  'claude.model_headers_settings',
  'claude.default_max_tokens',
  'claude.thinking_adapter_budget_tokens_percentage',
  'ServerAddress',
  'WorkerUrl',
  'TopupGroupRatio',
  'EmailDomainWhitelist',
  'SMTPPort',
  'Notice',
  'Logo',
  'HomePageContent',
  'About',
  'Footer',
] satisfies OptionHintKey[]);

/**
 * One settings card: its fields start from GET /api/option/ (secrets blank), and saving sends only
 * what changed, one PUT per key in card order (spec 000 §5, §8).
 */
export function OptionsCard(props: OptionsCardProps) {
  const { name, fields, hint, columns = 2, derive, locked, confirmChange, precondition } = props;
  const { t } = useTranslation();
  const server = useOptionValues();
  const [form, setForm] = useState<FormState | null>(null);
  const [errors, setErrors] = useState<Partial<Record<OptionKey, string>>>({});
  // What the server took is the new baseline; secrets go blank again.
  const save = useSaveOptions((saved, sent) =>
    setForm((previous) => {
      if (!previous) return previous;
      const baseline = { ...previous.baseline };
      const values = { ...previous.values };
      for (const key of saved) {
        const secret = fields.find((f) => f.key === key)?.kind === 'secret';
        const value = secret ? '' : (sent.find((c) => c.key === key)?.value ?? '');
        baseline[key] = value;
        values[key] = value;
      }
      return { baseline, values };
    }),
  );

  useEffect(() => {
    if (server) setForm((previous) => rebase(previous, pickFields(fields, server)));
  }, [server, fields]);

  const values = form?.values ?? {};
  const lockedKeys = locked?.(values) ?? new Set<OptionKey>();

  const apply = (key: OptionKey, value: string) => {
    setErrors(({ [key]: _cleared, ...rest }) => rest);
    setForm((previous) => {
      if (!previous) return previous;
      const next = { ...previous.values, [key]: value };
      return { ...previous, values: derive ? derive(next) : next };
    });
  };

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

  const submit = () => {
    if (!form || !server) return;
    const changes = changedOptions(fields, form);
    if (changes.length === 0) return notifyInfo(t('options.unchanged'));
    const problems: Partial<Record<OptionKey, string>> = {};
    for (const { key, value } of changes) {
      const field = fields.find((f) => f.key === key);
      const problem = field && fieldProblem(field, value);
      if (problem)
        problems[key] =
          problem.code === 'belowMinimum'
            ? t('options.belowMinimum', { min: problem.min })
            : t(`options.${problem.code}`);
    }
    setErrors(problems);
    if (Object.keys(problems).length > 0) return notifyError(t('options.checkInput'));
    const refusal = precondition?.(server);
    if (refusal) return notifyError(refusal);
    save.mutate(changes);
  };

  const render = (field: FieldSpec) => {
    const value = values[field.key] ?? '';
    const common = {
      label: t(`options.labels.${field.key}`),
      description: HINTED.has(field.key)
        ? t(`options.hints.${field.key as OptionHintKey}`)
        : undefined,
      error: errors[field.key],
      disabled: !form || lockedKeys.has(field.key),
    };
    switch (field.kind) {
      case 'switch':
        return (
          <Switch
            key={field.key}
            label={common.label}
            description={common.description}
            disabled={common.disabled}
            checked={value === 'true'}
            onChange={(event) => change(field.key, String(event.currentTarget.checked))}
          />
        );
      case 'number':
        return (
          <NumberInput
            key={field.key}
            {...common}
            min={field.min}
            // Below the minimum is said (不能小于 …), not silently corrected.
            clampBehavior="none"
            allowDecimal={!field.integer}
            value={value}
            onChange={(next) => change(field.key, String(next))}
          />
        );
      case 'secret':
        return (
          <PasswordInput
            key={field.key}
            {...common}
            autoComplete="new-password"
            placeholder={t('options.secretPlaceholder')}
            value={value}
            onChange={(event) => change(field.key, event.currentTarget.value)}
          />
        );
      case 'select':
        return (
          <Select
            key={field.key}
            {...common}
            allowDeselect={false}
            data={(field.choices ?? []).map((choice) => ({
              value: choice,
              label: t(`options.choices.${choice}`),
            }))}
            value={value}
            onChange={(next) => next !== null && change(field.key, next)}
          />
        );
      case 'tags':
        return (
          <TagsInput
            key={field.key}
            {...common}
            splitChars={[',', ' ']}
            value={value === '' ? [] : value.split(',')}
            onChange={(next) => change(field.key, next.join(','))}
          />
        );
      case 'textarea':
      case 'json':
        return (
          <Textarea
            key={field.key}
            {...common}
            autosize
            minRows={field.rows ?? (field.kind === 'json' ? 6 : 3)}
            maxRows={20}
            styles={field.kind === 'json' ? { input: { fontFamily: 'monospace' } } : undefined}
            lang={textLang(value)}
            value={value}
            onChange={(event) => change(field.key, event.currentTarget.value)}
          />
        );
      case 'text':
      case 'address':
        return (
          <TextInput
            key={field.key}
            {...common}
            placeholder={field.kind === 'address' ? 'https://' : undefined}
            value={value}
            onChange={(event) => change(field.key, event.currentTarget.value)}
          />
        );
    }
  };

  const switches = fields.filter((f) => f.kind === 'switch');
  const short = fields.filter((f) => f.kind !== 'switch' && !WIDE.has(f.kind));
  const wide = fields.filter((f) => WIDE.has(f.kind));

  return (
    <Card withBorder padding="lg" component="section" aria-label={t(`options.cards.${name}`)}>
      <Stack gap="md">
        <div>
          <Title order={4}>{t(`options.cards.${name}`)}</Title>
          {hint && (
            <Text size="sm" c="dimmed">
              {t(`options.cardHints.${hint}`)}
            </Text>
          )}
        </div>
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
          <Button onClick={submit} loading={save.isPending} disabled={!form}>
            {t('options.save')}
          </Button>
        </Group>
        {props.children}
      </Stack>
    </Card>
  );
}
