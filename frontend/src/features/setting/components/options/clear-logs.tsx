import { Button, Group, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '@/lib/notify';
import { optionsApi } from '../../api/options.api';
import { oneMonthAgo, toDateTimeLocal } from '../../utils/option-form';

/** DELETE /api/log/?target_timestamp=: rows before the chosen time (default one month ago). */
export function ClearLogs() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [time, setTime] = useState(() => toDateTimeLocal(oneMonthAgo(new Date())));
  const clear = useMutation({
    mutationFn: (seconds: number) => optionsApi.clearLogs(seconds),
    // The log page's queries (features/logs) use this root key.
    onSuccess: async (count) => {
      notifySuccess(t('options.log.cleared', { count }));
      await queryClient.invalidateQueries({ queryKey: ['logs'] });
    },
    meta: { silent: true },
    onError: () => notifyError(t('options.log.clearFailed')),
  });

  const submit = () => {
    const seconds = Math.floor(new Date(time).getTime() / 1000);
    if (time === '' || !Number.isFinite(seconds)) return notifyError(t('options.log.pickTime'));
    modals.openConfirmModal({
      title: t('options.log.confirmTitle'),
      children: (
        <Text size="sm">{t('options.log.confirmBody', { time: time.replace('T', ' ') })}</Text>
      ),
      labels: { confirm: t('options.log.clear'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => clear.mutate(seconds),
    });
  };

  return (
    <Group align="end">
      <TextInput
        type="datetime-local"
        label={t('options.log.clearBefore')}
        value={time}
        onChange={(event) => setTime(event.currentTarget.value)}
      />
      <Button color="red" variant="light" loading={clear.isPending} onClick={submit}>
        {t('options.log.clear')}
      </Button>
    </Group>
  );
}
