import { Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import type { UserDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { BudgetUse } from '@/features/tokens';
import { useEditUserForm, type EditUserValues } from '../hooks/use-edit-user-form';
import { AdminFields, BindingFields } from './edit-user-sections';

interface EditUserFormProps {
  user: UserDto;
  /** Editing another user (admin endpoint): group, quota and remark are editable too. */
  other: boolean;
  saving: boolean;
  onSubmit: (values: EditUserValues) => void;
  onCancel: () => void;
}

/** Bindings are read-only here; group and quota only appear when editing another user. */
export function EditUserForm({ user, other, saving, onSubmit, onCancel }: EditUserFormProps) {
  const { t } = useTranslation();
  const { values, set, submit } = useEditUserForm(user, other, onSubmit);

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={t('auth.username')}
          value={values.username}
          readOnly={!other}
          onChange={(event) => set('username', event.currentTarget.value)}
        />
        <TextInput
          label={t('users.displayName')}
          value={values.display_name}
          onChange={(event) => set('display_name', event.currentTarget.value)}
        />
        <PasswordInput
          label={t('auth.newPassword')}
          placeholder={t('users.passwordHint')}
          autoComplete="new-password"
          value={values.password}
          onChange={(event) => set('password', event.currentTarget.value)}
        />
        {!other && values.password && (
          <PasswordInput
            label={t('setting.currentPassword')}
            autoComplete="current-password"
            value={values.original_password}
            onChange={(event) => set('original_password', event.currentTarget.value)}
          />
        )}
        {other && <AdminFields values={values} set={set} />}
        {/* Everyone sees their budget's use; an admin sees it under the budget fields. */}
        <BudgetUse budget={user} testId="user-budget-use" />
        <BindingFields user={user} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={saving}>
            {t('common.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
