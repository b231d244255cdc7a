import { TextInput } from '@mantine/core';
import { VERTEX_REGION_TEMPLATE, type ChannelOtherKind } from '@tollgate/contracts';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useFieldError } from '@/hooks/field-errors-context';
import type { SetChannelField } from '../../hooks/use-channel-form-state';
import { JsonField } from './json-field';

/** Label and placeholder of the `other` field, by what it holds for the chosen type. */
const OTHER_TEXTS: Record<ChannelOtherKind, { label: ParseKeys; placeholder?: ParseKeys }> = {
  api_version: {
    label: 'channels.form.other.azure',
    placeholder: 'channels.form.other.azurePlaceholder',
  },
  spark_version: {
    label: 'channels.form.other.spark',
    placeholder: 'channels.form.other.sparkPlaceholder',
  },
  knowledge_id: {
    label: 'channels.form.other.knowledge',
    placeholder: 'channels.form.other.knowledgePlaceholder',
  },
  account_id: {
    label: 'channels.form.other.cloudflare',
    placeholder: 'channels.form.other.cloudflarePlaceholder',
  },
  region_json: {
    label: 'channels.form.other.vertex',
    placeholder: 'channels.form.other.vertexPlaceholder',
  },
  plugin: { label: 'channels.form.other.generic' },
};

interface OtherFieldProps {
  /** What `other` holds for the chosen type; absent when the type has no such field. */
  kind: ChannelOtherKind | undefined;
  value: string;
  set: SetChannelField;
}

/** The type-specific `other` field: a version, an id, or Vertex's region JSON. */
export function OtherField({ kind, value, set }: OtherFieldProps) {
  const { t } = useTranslation();
  const fault = useFieldError('other');
  if (!kind) return null;
  const texts = OTHER_TEXTS[kind];
  const label = t(texts.label);
  const placeholder = texts.placeholder ? t(texts.placeholder) : undefined;
  if (kind === 'region_json') {
    return (
      <JsonField
        label={label}
        placeholder={placeholder}
        value={value}
        onChange={(next) => set('other', next)}
        template={VERTEX_REGION_TEMPLATE}
        field="other"
        templateLabel={t('channels.form.fillTemplate')}
      />
    );
  }
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      value={value}
      onChange={(event) => set('other', event.currentTarget.value)}
      {...fault}
    />
  );
}
