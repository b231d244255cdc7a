import {
  Autocomplete,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  CHANNEL_TYPE_MODELS,
  CHANNEL_TYPE_TABLE,
  channelTypeInfo,
  MODEL_MAPPING_TEMPLATE,
  splitChannelKeys,
  STATUS_CODE_MAPPING_TEMPLATE,
  VERTEX_REGION_TEMPLATE,
  isRoot,
  type ChannelOtherKind,
} from '@tollgate/contracts';
import type { ParseKeys } from 'i18next';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '@/features/auth';
import { groupQueries } from '@/features/users';
import { ApiError } from '@/lib/http';
import { notifyError, notifySuccess } from '@/lib/notify';
import { channelQueries, channelsApi } from '../api/channels.api';
import { channelTypeName } from '../utils/channel-display';
import {
  addCustomModels,
  formToRequest,
  mergeModels,
  validateChannelForm,
  withType,
  type ChannelFormValues,
} from '../utils/channel-form';
import { MIN_PRIORITY, MIN_WEIGHT } from '../utils/channel-numbers';

interface ChannelFormProps {
  /** Present when editing a stored channel. */
  channelId?: number;
  initial: ChannelFormValues;
  saving: boolean;
  onSubmit: (body: ReturnType<typeof formToRequest>) => void;
  onCancel: () => void;
}

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

interface JsonFieldProps {
  label: string;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  /** Filled in by the template button beside the label. */
  template: string;
  templateLabel: string;
}

/** A JSON text field with a "fill template" button beside its label (kept outside the label). */
function JsonField({
  label,
  placeholder,
  value,
  onChange,
  template,
  templateLabel,
}: JsonFieldProps) {
  const id = useId();
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text component="label" htmlFor={id} size="sm" fw={500}>
          {label}
        </Text>
        <Button size="compact-xs" variant="subtle" onClick={() => onChange(template)}>
          {templateLabel}
        </Button>
      </Group>
      <Textarea
        id={id}
        placeholder={placeholder}
        autosize
        minRows={2}
        spellCheck={false}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    </Stack>
  );
}

/** Every field of the Channel entity (spec 000 §3) with the form rules of §5. */
export function ChannelForm({ channelId, initial, saving, onSubmit, onCancel }: ChannelFormProps) {
  const { t } = useTranslation();
  const mode = channelId === undefined ? 'create' : 'edit';
  const [values, setValues] = useState<ChannelFormValues>(initial);
  const [customModel, setCustomModel] = useState('');
  const groups = useQuery(groupQueries.names());
  const knownModels = useQuery({ ...channelQueries.knownModels(), enabled: false });
  const set = <K extends keyof ChannelFormValues>(name: K, value: ChannelFormValues[K]) =>
    setValues((current) => ({ ...current, [name]: value }));
  const info = channelTypeInfo(values.type);
  // Only root may keep the stored key while changing what decides where it is sent (type, base
  // URL, `other`); the server refuses anyone else, so the key field says so up front.
  const role = useSessionUser()?.role;
  const mayKeepKey = role !== undefined && isRoot(role);
  const typeModels = CHANNEL_TYPE_MODELS[values.type] ?? [];

  const fetchModels = useMutation({
    mutationFn: () => {
      const key = splitChannelKeys(values.type, values.key)[0];
      // A saved channel without a new key asks with its stored key.
      if (channelId !== undefined && !key) return channelsApi.fetchModels(channelId);
      return channelsApi.fetchModelsFor({
        type: values.type,
        key: key ?? '',
        base_url: values.base_url.trim(),
      });
    },
    meta: { silent: true },
    onSuccess: (models) => {
      set('models', models);
      notifySuccess(t('channels.messages.modelsFetched', { count: models.length }));
    },
    onError: (error) => {
      const failed = t('channels.messages.fetchModelsFailed');
      notifyError(
        error instanceof ApiError && error.message ? `${failed}：${error.message}` : failed,
      );
    },
  });

  const requestModelList = () => {
    if (!info?.modelListApi) return notifyError(t('channels.validation.fetchModelsOpenAIOnly'));
    if (mode === 'create' && !values.key.trim()) {
      return notifyError(t('channels.validation.keyRequired'));
    }
    fetchModels.mutate();
  };

  const fillAll = async () => {
    const result = knownModels.data ? knownModels : await knownModels.refetch();
    if (result.data)
      set(
        'models',
        mergeModels(
          values.models,
          result.data.map((model) => model.id),
        ),
      );
  };

  const addCustom = () => {
    const result = addCustomModels(values.models, customModel);
    if (!result) return;
    if ('duplicate' in result) return notifyError(t('channels.validation.modelsExist'));
    set('models', result.models);
    setCustomModel('');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (saving) return notifyError(t('channels.messages.duplicateSubmit'));
    const problem = validateChannelForm(values, mode);
    if (problem) return notifyError(t(problem.message, { format: problem.format ?? '' }));
    onSubmit(formToRequest(values));
  };

  const typeOptions = CHANNEL_TYPE_TABLE.map((type) => ({
    value: String(type.value),
    label: `${type.value} · ${type.name}`,
  }));
  if (!info) {
    typeOptions.unshift({
      value: String(values.type),
      label: `${values.type} · ${channelTypeName(values.type) ?? t('channels.unknownType')}`,
    });
  }
  const groupOptions = Array.from(new Set([...(groups.data ?? []), ...values.groups]));
  const modelOptions = mergeModels(
    values.models,
    mergeModels(
      typeModels,
      (knownModels.data ?? []).map((model) => model.id),
    ),
  );

  const keyDescription = [
    info && info.keyFormat !== 'api_key' && info.keyFormat !== 'json'
      ? t('channels.form.keyFormat', { format: info.keyFormat })
      : null,
    info?.jsonKey ? t('channels.form.keyJsonHint') : null,
    mode === 'create' && !info?.jsonKey ? t('channels.form.keyBatchHint') : null,
    mode === 'edit' && !mayKeepKey ? t('channels.form.keyRetargetHint') : null,
  ]
    .filter(Boolean)
    .join('；');

  const baseUrlLabel =
    values.type === 3 ? t('channels.form.azureEndpoint') : t('channels.form.baseUrl');
  const baseUrlPlaceholder =
    values.type === 3
      ? t('channels.form.azureEndpointPlaceholder')
      : values.type === 8
        ? t('channels.form.customBaseUrlPlaceholder')
        : info?.defaultBaseUrl
          ? t('channels.form.baseUrlPlaceholder', { url: info.defaultBaseUrl })
          : t('channels.form.baseUrlOptional');
  const otherTexts = info?.other ? OTHER_TEXTS[info.other.kind] : null;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Select
          label={t('channels.form.type')}
          data={typeOptions}
          value={String(values.type)}
          onChange={(value) => value && setValues((current) => withType(current, Number(value)))}
          allowDeselect={false}
          searchable
        />
        <TextInput
          label={t('channels.form.name')}
          placeholder={t('channels.form.namePlaceholder')}
          required
          value={values.name}
          onChange={(event) => set('name', event.currentTarget.value)}
        />
        <TextInput
          label={baseUrlLabel}
          placeholder={baseUrlPlaceholder}
          value={values.base_url}
          onChange={(event) => set('base_url', event.currentTarget.value)}
        />
        {otherTexts &&
          (info?.other?.kind === 'region_json' ? (
            <JsonField
              label={t(otherTexts.label)}
              placeholder={otherTexts.placeholder ? t(otherTexts.placeholder) : undefined}
              value={values.other}
              onChange={(value) => set('other', value)}
              template={VERTEX_REGION_TEMPLATE}
              templateLabel={t('channels.form.fillTemplate')}
            />
          ) : (
            <TextInput
              label={t(otherTexts.label)}
              placeholder={otherTexts.placeholder ? t(otherTexts.placeholder) : undefined}
              value={values.other}
              onChange={(event) => set('other', event.currentTarget.value)}
            />
          ))}
        <Textarea
          label={t('channels.form.key')}
          description={keyDescription || undefined}
          placeholder={
            mode === 'edit'
              ? t('channels.form.keyEditPlaceholder')
              : t('channels.form.keyPlaceholder')
          }
          required={mode === 'create'}
          autosize
          minRows={mode === 'create' ? 3 : 2}
          maxRows={10}
          autoComplete="off"
          spellCheck={false}
          value={values.key}
          onChange={(event) => set('key', event.currentTarget.value)}
        />
        {values.type === 1 && (
          <TextInput
            label={t('channels.form.organization')}
            placeholder={t('channels.form.organizationPlaceholder')}
            value={values.openai_organization}
            onChange={(event) => set('openai_organization', event.currentTarget.value)}
          />
        )}
        <MultiSelect
          label={t('channels.form.groups')}
          placeholder={t('channels.form.groupsPlaceholder')}
          data={groupOptions}
          value={values.groups}
          onChange={(value) => set('groups', value)}
          searchable
        />
        <MultiSelect
          label={t('channels.form.models')}
          placeholder={t('channels.form.modelsPlaceholder')}
          required
          data={modelOptions}
          value={values.models}
          onChange={(value) => set('models', value)}
          searchable
          clearable
          maxDropdownHeight={260}
          name="models"
        />
        <Group gap="xs">
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => set('models', mergeModels(values.models, typeModels))}
          >
            {t('channels.form.fillRelated')}
          </Button>
          <Button
            size="compact-sm"
            variant="light"
            color="teal"
            loading={knownModels.isFetching}
            onClick={() => void fillAll()}
          >
            {t('channels.form.fillAll')}
          </Button>
          <Button
            size="compact-sm"
            variant="light"
            color="cyan"
            loading={fetchModels.isPending}
            onClick={requestModelList}
          >
            {t('channels.form.fetchModels')}
          </Button>
          <Button size="compact-sm" variant="light" color="red" onClick={() => set('models', [])}>
            {t('channels.form.clearModels')}
          </Button>
        </Group>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label={t('channels.form.customModel')}
            placeholder={t('channels.form.customModelPlaceholder')}
            value={customModel}
            onChange={(event) => setCustomModel(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                addCustom();
              }
            }}
          />
          <Button variant="default" onClick={addCustom}>
            {t('channels.form.addCustomModel')}
          </Button>
        </Group>
        <JsonField
          label={t('channels.form.modelMapping')}
          placeholder={t('channels.form.modelMappingPlaceholder')}
          value={values.model_mapping}
          onChange={(value) => set('model_mapping', value)}
          template={MODEL_MAPPING_TEMPLATE}
          templateLabel={t('channels.form.fillTemplate')}
        />
        <JsonField
          label={t('channels.form.statusCodeMapping')}
          placeholder={t('channels.form.statusCodeMappingPlaceholder')}
          value={values.status_code_mapping}
          onChange={(value) => set('status_code_mapping', value)}
          template={STATUS_CODE_MAPPING_TEMPLATE}
          templateLabel={t('channels.form.fillTemplate')}
        />
        <SimpleGrid cols={2}>
          <Autocomplete
            label={t('channels.form.testModel')}
            placeholder={t('channels.form.testModelPlaceholder')}
            data={values.models}
            value={values.test_model}
            onChange={(value) => set('test_model', value)}
          />
          <TextInput
            label={t('channels.form.tag')}
            placeholder={t('channels.form.tagPlaceholder')}
            value={values.tag}
            onChange={(event) => set('tag', event.currentTarget.value)}
          />
          <NumberInput
            label={t('channels.form.priority')}
            description={t('channels.priorityHint')}
            value={values.priority}
            onChange={(value) => set('priority', value)}
            min={MIN_PRIORITY}
            allowDecimal={false}
          />
          <NumberInput
            label={t('channels.form.weight')}
            description={t('channels.weightHint')}
            value={values.weight}
            onChange={(value) => set('weight', value)}
            min={MIN_WEIGHT}
            allowDecimal={false}
          />
          <NumberInput
            label={t('channels.form.maxInputTokens')}
            description={t('channels.form.maxInputTokensHint')}
            value={values.max_input_tokens}
            onChange={(value) => set('max_input_tokens', Number(value) || 0)}
            min={0}
            allowDecimal={false}
          />
        </SimpleGrid>
        <Textarea
          label={t('channels.form.setting')}
          placeholder={t('channels.form.settingPlaceholder')}
          autosize
          minRows={2}
          value={values.setting}
          onChange={(event) => set('setting', event.currentTarget.value)}
        />
        <Switch
          label={t('channels.form.autoBan')}
          description={t('channels.form.autoBanHint')}
          checked={values.auto_ban}
          onChange={(event) => set('auto_ban', event.currentTarget.checked)}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onCancel}>
            {t('channels.form.cancel')}
          </Button>
          <Button type="submit" loading={saving}>
            {t('channels.form.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
