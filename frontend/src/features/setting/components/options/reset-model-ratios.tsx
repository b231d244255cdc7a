import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '@/lib/notify';
import { optionQueries, optionsApi } from '../../api/options.api';

/** POST /api/option/rest_model_ratio: ModelRatio, CompletionRatio and ModelPrice to defaults. */
export function ResetModelRatios() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const reset = useMutation({
    mutationFn: optionsApi.resetModelRatios,
    onSuccess: async () => {
      notifySuccess(t('options.ratio.resetDone'));
      await queryClient.invalidateQueries({ queryKey: optionQueries.all });
    },
  });
  const confirm = () =>
    modals.openConfirmModal({
      title: t('options.ratio.resetConfirmTitle'),
      children: <Text size="sm">{t('options.ratio.resetConfirmBody')}</Text>,
      labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => reset.mutate(),
    });
  return (
    <Group>
      <Button color="red" variant="light" loading={reset.isPending} onClick={confirm}>
        {t('options.ratio.reset')}
      </Button>
    </Group>
  );
}
