import {
  Button,
  Group,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { BudgetPeriodName, UserDto } from '@tollgate/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { QuotaBalance } from '@/features/status';
import { BudgetFields, BudgetUse, budgetError } from '@/features/tokens';
import { notifyError } from '@/lib/notify';
import { groupQueries } from '../api/users.api';

const MIN_PASSWORD_LENGTH = 8;

export interface EditUserValues {
  username: string;
  display_name: string;
  password: string;
  original_password: string;
  group: string;
  quota: number;
  /** The balance shown when the form opened: the server refuses the edit if it moved since. */
  shown_quota: number;
  remark: string;
  /** The periodic budget (docs/budgets.md): '' = none; quota units per period. */
  period: BudgetPeriodName;
  period_quota: number | string;
}

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
  const groups = useQuery({ ...groupQueries.names(), enabled: other });
  const [values, setValues] = useState<EditUserValues>({
    username: user.username,
    display_name: user.display_name,
    password: '',
    original_password: '',
    group: user.group || 'default',
    quota: user.quota,
    shown_quota: user.quota,
    remark: user.remark ?? '',
    period: user.period ?? '',
    period_quota: user.period_quota ?? 0,
  });
  const set = <K extends keyof EditUserValues>(name: K, value: EditUserValues[K]) =>
    setValues((current) => ({ ...current, [name]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (values.password && values.password.length < MIN_PASSWORD_LENGTH) {
      return notifyError(t('auth.passwordTooShort'));
    }
    if (!other && values.password && !values.original_password) {
      return notifyError(t('setting.enterCurrentPassword'));
    }
    const periodError = other && budgetError(values.period, values.period_quota);
    if (periodError) return notifyError(t(periodError));
    onSubmit(values);
  };

  const groupOptions = Array.from(new Set([...(groups.data ?? []), values.group]));

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
        {other && (
          <>
            <Select
              label={t('users.columns.group')}
              data={groupOptions}
              value={values.group}
              onChange={(value) => set('group', value ?? 'default')}
              allowDeselect={false}
              searchable
            />
            <NumberInput
              label={t('users.remainingQuota')}
              description={<QuotaBalance quota={values.quota} />}
              value={values.quota}
              onChange={(value) => set('quota', Number(value) || 0)}
              allowDecimal={false}
            />
            <TextInput
              label={t('users.remark')}
              value={values.remark}
              onChange={(event) => set('remark', event.currentTarget.value)}
            />
            <BudgetFields
              testId="user-budget"
              period={values.period}
              periodQuota={values.period_quota}
              onPeriod={(period) => set('period', period)}
              onPeriodQuota={(quota) => set('period_quota', quota)}
            />
          </>
        )}
        {/* Everyone sees their budget's use; an admin sees it under the budget fields. */}
        <BudgetUse budget={user} testId="user-budget-use" />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {(
            [
              ['setting.bindGithub', user.github_id],
              ['setting.bindWechat', user.wechat_id],
              ['setting.bindEmail', user.email],
              ['setting.bindTelegram', user.telegram_id],
            ] as const
          ).map(([label, value]) => (
            <TextInput
              key={label}
              label={t(label)}
              value={value}
              readOnly
              placeholder={t('users.bindingReadOnly')}
            />
          ))}
        </SimpleGrid>
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
