import { Select, Textarea, TextInput } from '@mantine/core';
import {
  CHANNEL_TYPE_TABLE,
  channelTypeInfo,
  isRoot,
  type ChannelTypeInfo,
} from '@tollgate/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '@/features/auth';
import { useFieldError } from '@/hooks/field-errors-context';
import type { ChannelFormMode, SetChannelField } from '../../hooks/use-channel-form-state';
import { channelTypeName } from '../../utils/channel-display';
import type { ChannelFormValues } from '../../utils/channel-form';
import { OtherField } from './other-field';

/** Channel types whose base URL field reads differently. */
const AZURE_TYPE = 3;
const CUSTOM_TYPE = 8;
const OPENAI_TYPE = 1;

interface TargetFieldsProps {
  mode: ChannelFormMode;
  values: ChannelFormValues;
  set: SetChannelField;
  onTypeChange: (type: number) => void;
}

/** Where the channel sends requests and with what: type, name, base URL, `other`, key. */
export function ChannelTargetFields({ mode, values, set, onTypeChange }: TargetFieldsProps) {
  const { t } = useTranslation();
  const info = channelTypeInfo(values.type);
  const baseUrl = baseUrlTexts(t, values.type, info);
  const nameFault = useFieldError('name');
  return (
    <>
      <ChannelTypeSelect type={values.type} known={info !== undefined} onChange={onTypeChange} />
      <TextInput
        label={t('channels.form.name')}
        placeholder={t('channels.form.namePlaceholder')}
        required
        value={values.name}
        onChange={(event) => set('name', event.currentTarget.value)}
        {...nameFault}
      />
      <TextInput
        label={baseUrl.label}
        placeholder={baseUrl.placeholder}
        value={values.base_url}
        onChange={(event) => set('base_url', event.currentTarget.value)}
      />
      <OtherField kind={info?.other?.kind} value={values.other} set={set} />
      <ChannelKeyField mode={mode} info={info} value={values.key} set={set} />
      {values.type === OPENAI_TYPE && (
        <TextInput
          label={t('channels.form.organization')}
          placeholder={t('channels.form.organizationPlaceholder')}
          value={values.openai_organization}
          onChange={(event) => set('openai_organization', event.currentTarget.value)}
        />
      )}
    </>
  );
}

function baseUrlTexts(t: TFunction, type: number, info: ChannelTypeInfo | undefined) {
  if (type === AZURE_TYPE) {
    return {
      label: t('channels.form.azureEndpoint'),
      placeholder: t('channels.form.azureEndpointPlaceholder'),
    };
  }
  const label = t('channels.form.baseUrl');
  if (type === CUSTOM_TYPE)
    return { label, placeholder: t('channels.form.customBaseUrlPlaceholder') };
  if (info?.defaultBaseUrl) {
    return {
      label,
      placeholder: t('channels.form.baseUrlPlaceholder', { url: info.defaultBaseUrl }),
    };
  }
  return { label, placeholder: t('channels.form.baseUrlOptional') };
}

interface TypeSelectProps {
  type: number;
  /** False for a stored type the table no longer lists: it stays selectable as it is. */
  known: boolean;
  onChange: (type: number) => void;
}

function ChannelTypeSelect({ type, known, onChange }: TypeSelectProps) {
  const { t } = useTranslation();
  const options = CHANNEL_TYPE_TABLE.map((row) => ({
    value: String(row.value),
    label: row.name,
  }));
  // Only a type the table no longer lists shows its number: nothing else tells it apart.
  if (!known) {
    options.unshift({
      value: String(type),
      label: `${channelTypeName(type) ?? t('channels.unknownType')} (${type})`,
    });
  }
  return (
    <Select
      label={t('channels.form.type')}
      data={options}
      value={String(type)}
      onChange={(value) => value && onChange(Number(value))}
      allowDeselect={false}
      searchable
      nothingFoundMessage={t('channels.form.typeNotFound')}
    />
  );
}

interface KeyFieldProps {
  mode: ChannelFormMode;
  info: ChannelTypeInfo | undefined;
  value: string;
  set: SetChannelField;
}

function ChannelKeyField({ mode, info, value, set }: KeyFieldProps) {
  const { t } = useTranslation();
  // Only root may keep the stored key while changing what decides where it is sent (type, base
  // URL, `other`); the server refuses anyone else, so the key field says so up front.
  const role = useSessionUser()?.role;
  const mayKeepKey = role !== undefined && isRoot(role);
  const description = [
    info && info.keyFormat !== 'api_key' && info.keyFormat !== 'json'
      ? t('channels.form.keyFormat', { format: info.keyFormat })
      : null,
    info?.jsonKey ? t('channels.form.keyJsonHint') : null,
    mode === 'create' && !info?.jsonKey ? t('channels.form.keyBatchHint') : null,
    mode === 'edit' && !mayKeepKey ? t('channels.form.keyRetargetHint') : null,
  ]
    .filter(Boolean)
    .join('；');
  const keyFault = useFieldError('key');
  return (
    <Textarea
      label={t('channels.form.key')}
      description={description || undefined}
      placeholder={
        mode === 'edit' ? t('channels.form.keyEditPlaceholder') : t('channels.form.keyPlaceholder')
      }
      required={mode === 'create'}
      autosize
      minRows={mode === 'create' ? 3 : 2}
      maxRows={10}
      autoComplete="off"
      spellCheck={false}
      value={value}
      onChange={(event) => set('key', event.currentTarget.value)}
      {...keyFault}
    />
  );
}
