import { Button, Group, MultiSelect, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { CHANNEL_TYPE_MODELS } from '@tollgate/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { groupQueries } from '@/features/users';
import { notifyError } from '@/lib/notify';
import { useFieldError } from '@/hooks/field-errors-context';
import type { ChannelFormMode, SetChannelField } from '../../hooks/use-channel-form-state';
import { useModelListActions } from '../../hooks/use-model-list-actions';
import { addCustomModels, mergeModels, type ChannelFormValues } from '../../utils/channel-form';

interface ModelFieldsProps {
  /** Present when editing a stored channel. */
  channelId?: number;
  mode: ChannelFormMode;
  values: ChannelFormValues;
  set: SetChannelField;
}

/** Who may use the channel and for which models: groups, models and the buttons filling them. */
export function ChannelModelFields({ channelId, mode, values, set }: ModelFieldsProps) {
  const { t } = useTranslation();
  const groups = useQuery(groupQueries.names());
  const actions = useModelListActions({ channelId, mode, values, set });
  const modelsFault = useFieldError('models');
  const typeModels = CHANNEL_TYPE_MODELS[values.type] ?? [];
  const groupOptions = Array.from(new Set([...(groups.data ?? []), ...values.groups]));
  const modelOptions = mergeModels(
    values.models,
    mergeModels(
      typeModels,
      (actions.knownModels.data ?? []).map((model) => model.id),
    ),
  );
  return (
    <>
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
        {...modelsFault}
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
          loading={actions.knownModels.isFetching}
          onClick={() => void actions.fillAll()}
        >
          {t('channels.form.fillAll')}
        </Button>
        <Button
          size="compact-sm"
          variant="light"
          color="cyan"
          loading={actions.fetchModels.isPending}
          onClick={actions.requestModelList}
        >
          {t('channels.form.fetchModels')}
        </Button>
        <Button size="compact-sm" variant="light" color="red" onClick={() => set('models', [])}>
          {t('channels.form.clearModels')}
        </Button>
      </Group>
      <CustomModelInput models={values.models} set={set} />
    </>
  );
}

/** Adds models typed by hand (comma-separated), refusing ones already listed. */
function CustomModelInput({ models, set }: { models: string[]; set: SetChannelField }) {
  const { t } = useTranslation();
  const [customModel, setCustomModel] = useState('');
  const addCustom = () => {
    const result = addCustomModels(models, customModel);
    if (!result) return;
    if ('duplicate' in result) return notifyError(t('channels.validation.modelsExist'));
    set('models', result.models);
    setCustomModel('');
  };
  return (
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
  );
}
