import { useMutation, useQuery } from '@tanstack/react-query';
import { channelTypeInfo, splitChannelKeys } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/http';
import { notifyError, notifySuccess } from '@/lib/notify';
import { channelQueries, channelsApi } from '../api/channels.api';
import { mergeModels, type ChannelFormValues } from '../utils/channel-form';
import type { ChannelFormMode, SetChannelField } from './use-channel-form-state';

interface ModelListSource {
  /** Present when editing a stored channel. */
  channelId?: number;
  mode: ChannelFormMode;
  values: ChannelFormValues;
  set: SetChannelField;
}

/**
 * The channel form's model buttons: fill every model the gateway knows, or ask the upstream for
 * its model list (with the typed key, or a saved channel's stored key).
 */
export function useModelListActions({ channelId, mode, values, set }: ModelListSource) {
  const { t } = useTranslation();
  const knownModels = useQuery({ ...channelQueries.knownModels(), enabled: false });

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
    if (!channelTypeInfo(values.type)?.modelListApi) {
      return notifyError(t('channels.validation.fetchModelsOpenAIOnly'));
    }
    if (mode === 'create' && !values.key.trim()) {
      return notifyError(t('channels.validation.keyRequired'));
    }
    fetchModels.mutate();
  };

  const fillAll = async () => {
    const result = knownModels.data ? knownModels : await knownModels.refetch();
    if (result.data) {
      set(
        'models',
        mergeModels(
          values.models,
          result.data.map((model) => model.id),
        ),
      );
    }
  };

  return { knownModels, fetchModels, requestModelList, fillAll };
}
