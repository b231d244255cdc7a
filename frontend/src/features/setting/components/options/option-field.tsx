import {
  NumberInput,
  PasswordInput,
  Select,
  Switch,
  TagsInput,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { textLang } from '@/utils/text-lang';
import type { FieldKind, FieldSpec, OptionHintKey, OptionKey } from '../../utils/option-form';

/** The options whose label has a hint under it. */
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

interface OptionFieldProps {
  readonly field: FieldSpec;
  /** The form's text of the option ('true' / 'false' for a switch). */
  readonly value: string;
  readonly error: string | undefined;
  readonly disabled: boolean;
  readonly onChange: (key: OptionKey, value: string) => void;
}

/** What every input of a card takes: label, hint, error, disabled. */
interface CommonProps {
  label: string;
  description: string | undefined;
  error: string | undefined;
  disabled: boolean;
}

interface InputProps {
  readonly field: FieldSpec;
  readonly value: string;
  readonly common: CommonProps;
  readonly change: (value: string) => void;
}

/** One option's input, chosen by the field's kind. */
export function OptionField({ field, value, error, disabled, onChange }: OptionFieldProps) {
  const { t } = useTranslation();
  const common = {
    label: t(`options.labels.${field.key}`),
    description: HINTED.has(field.key)
      ? t(`options.hints.${field.key as OptionHintKey}`)
      : undefined,
    error,
    disabled,
  };
  const Input = INPUTS[field.kind];
  return (
    <Input
      field={field}
      value={value}
      common={common}
      change={(next) => onChange(field.key, next)}
    />
  );
}

function SwitchInput({ value, common, change }: InputProps) {
  return (
    <Switch
      label={common.label}
      description={common.description}
      disabled={common.disabled}
      checked={value === 'true'}
      onChange={(event) => change(String(event.currentTarget.checked))}
    />
  );
}

function NumberOptionInput({ field, value, common, change }: InputProps) {
  return (
    <NumberInput
      {...common}
      min={field.min}
      // Below the minimum is said (不能小于 …), not silently corrected.
      clampBehavior="none"
      allowDecimal={!field.integer}
      value={value}
      onChange={(next) => change(String(next))}
    />
  );
}

/** Secrets are never read back: the field starts blank, and blank keeps the stored one. */
function SecretInput({ value, common, change }: InputProps) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      {...common}
      autoComplete="new-password"
      placeholder={t('options.secretPlaceholder')}
      value={value}
      onChange={(event) => change(event.currentTarget.value)}
    />
  );
}

function SelectInput({ field, value, common, change }: InputProps) {
  const { t } = useTranslation();
  return (
    <Select
      {...common}
      allowDeselect={false}
      data={(field.choices ?? []).map((choice) => ({
        value: choice,
        label: t(`options.choices.${choice}`),
      }))}
      value={value}
      onChange={(next) => next !== null && change(next)}
    />
  );
}

/** A comma-separated list edited as tags. */
function TagsOptionInput({ value, common, change }: InputProps) {
  return (
    <TagsInput
      {...common}
      splitChars={[',', ' ']}
      value={value === '' ? [] : value.split(',')}
      onChange={(next) => change(next.join(','))}
    />
  );
}

/** Long text; JSON in a monospace font and taller. */
function TextareaInput({ field, value, common, change }: InputProps) {
  const json = field.kind === 'json';
  return (
    <Textarea
      {...common}
      autosize
      minRows={field.rows ?? (json ? 6 : 3)}
      maxRows={20}
      styles={json ? { input: { fontFamily: 'monospace' } } : undefined}
      lang={textLang(value)}
      value={value}
      onChange={(event) => change(event.currentTarget.value)}
    />
  );
}

function TextOptionInput({ field, value, common, change }: InputProps) {
  return (
    <TextInput
      {...common}
      placeholder={field.kind === 'address' ? 'https://' : undefined}
      value={value}
      onChange={(event) => change(event.currentTarget.value)}
    />
  );
}

const INPUTS: Record<FieldKind, (props: InputProps) => ReactNode> = {
  switch: SwitchInput,
  number: NumberOptionInput,
  secret: SecretInput,
  select: SelectInput,
  tags: TagsOptionInput,
  textarea: TextareaInput,
  json: TextareaInput,
  text: TextOptionInput,
  address: TextOptionInput,
};
