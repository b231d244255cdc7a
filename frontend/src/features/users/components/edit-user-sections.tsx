import { NumberInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { UserDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { QuotaBalance } from '@/features/status';
import { BudgetFields } from '@/features/tokens';
import { groupQueries } from '../api/users.api';
import type { EditUserValues, SetUserField } from '../hooks/use-edit-user-form';

/** An admin editing another user: the group, the balance, the remark and the periodic budget. */
export function AdminFields({ values, set }: { values: EditUserValues; set: SetUserField }) {
  const { t } = useTranslation();
  const groups = useQuery(groupQueries.names());
  // The user's group stays offered even when it is no longer configured.
  const groupOptions = Array.from(new Set([...(groups.data ?? []), values.group]));
  return (
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
  );
}

/** The sign-in bindings, read-only here. */
export function BindingFields({ user }: { user: UserDto }) {
  const { t } = useTranslation();
  const bindings = [
    ['setting.bindGithub', user.github_id],
    ['setting.bindWechat', user.wechat_id],
    ['setting.bindEmail', user.email],
    ['setting.bindTelegram', user.telegram_id],
  ] as const;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {bindings.map(([label, value]) => (
        <TextInput
          key={label}
          label={t(label)}
          value={value}
          readOnly
          placeholder={t('users.bindingReadOnly')}
        />
      ))}
    </SimpleGrid>
  );
}
