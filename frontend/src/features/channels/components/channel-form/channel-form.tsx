import { Button, Group, Stack } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldErrorsContext } from '@/hooks/field-errors-context';
import { notifyError } from '@/lib/notify';
import { useChannelFormState } from '../../hooks/use-channel-form-state';
import {
  formToRequest,
  validateChannelForm,
  withType,
  type ChannelFormValues,
} from '../../utils/channel-form';
import { ChannelModelFields } from './model-fields';
import { ChannelRoutingFields } from './routing-fields';
import { ChannelTargetFields } from './target-fields';

interface ChannelFormProps {
  /** Present when editing a stored channel. */
  channelId?: number;
  initial: ChannelFormValues;
  saving: boolean;
  onSubmit: (body: ReturnType<typeof formToRequest>) => void;
  onCancel: () => void;
}

/**
 * Every field of a channel; the form's rules are checked before anything is sent, the first fault
 * shown on its field.
 */
export function ChannelForm({ channelId, initial, saving, onSubmit, onCancel }: ChannelFormProps) {
  const { t } = useTranslation();
  const mode = channelId === undefined ? 'create' : 'edit';
  const { values, setValues, set, errors } = useChannelFormState(initial);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (saving) return notifyError(t('channels.messages.duplicateSubmit'));
    const problem = validateChannelForm(values, mode);
    if (problem)
      return errors.show(problem.field, t(problem.message, { format: problem.format ?? '' }));
    onSubmit(formToRequest(values));
  };

  return (
    <form ref={errors.ref} onSubmit={submit} noValidate>
      <FieldErrorsContext value={errors}>
        <Stack gap="sm">
          <ChannelTargetFields
            mode={mode}
            values={values}
            set={set}
            onTypeChange={(type) => setValues((current) => withType(current, type))}
          />
          <ChannelModelFields channelId={channelId} mode={mode} values={values} set={set} />
          <ChannelRoutingFields values={values} set={set} />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onCancel}>
              {t('channels.form.cancel')}
            </Button>
            <Button type="submit" loading={saving}>
              {t('channels.form.submit')}
            </Button>
          </Group>
        </Stack>
      </FieldErrorsContext>
    </form>
  );
}
