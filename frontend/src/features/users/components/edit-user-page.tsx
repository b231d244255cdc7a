import { Loader, Paper, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useSelf } from '@/features/setting';
import { userQueries } from '../api/users.api';
import { useUpdateSelfProfile } from '../hooks/use-update-self-profile';
import { useUpdateUser } from '../hooks/use-user-mutations';
import type { EditUserValues } from '../hooks/use-edit-user-form';
import { EditUserForm } from './edit-user-form';

function EditOtherUser({ id }: { id: number }) {
  const navigate = useNavigate();
  const { data: user } = useQuery(userQueries.detail(id));
  const update = useUpdateUser();
  if (!user) return <Loader />;

  const save = (values: EditUserValues) =>
    update.mutate(
      {
        id,
        username: values.username.trim(),
        display_name: values.display_name,
        password: values.password || undefined,
        group: values.group,
        // A quota edit carries the balance it started from; an untouched quota is not sent, so
        // charges made while the form was open never make an unrelated edit fail.
        ...(values.quota !== values.shown_quota
          ? { quota: values.quota, expected_quota: values.shown_quota }
          : {}),
        remark: values.remark,
        // The budget only when changed: an unrelated edit records no BudgetSet.
        ...(values.period !== (user.period ?? '') ||
        (values.period && Number(values.period_quota) !== user.period_quota)
          ? { period: values.period, period_quota: values.period ? Number(values.period_quota) : 0 }
          : {}),
      },
      { onSuccess: () => void navigate('/user') },
    );

  return (
    <EditUserForm
      user={user}
      other
      saving={update.isPending}
      onSubmit={save}
      onCancel={() => void navigate('/user')}
    />
  );
}

function EditSelf() {
  const navigate = useNavigate();
  const { data: user } = useSelf();
  const update = useUpdateSelfProfile();
  if (!user) return <Loader />;

  const save = (values: EditUserValues) =>
    update.mutate({
      display_name: values.display_name,
      ...(values.password
        ? { password: values.password, original_password: values.original_password }
        : {}),
    });

  return (
    <EditUserForm
      user={user}
      other={false}
      saving={update.isPending}
      onSubmit={save}
      onCancel={() => void navigate(-1)}
    />
  );
}

/** /user/edit/{id} edits another user (admin endpoint); /user/edit edits oneself. */
export function EditUserPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const userId = Number(id);

  return (
    <Paper withBorder p="lg" radius="md" maw={720}>
      <Title order={3} mb="md">
        {t('users.editTitle')}
      </Title>
      {id && Number.isInteger(userId) ? <EditOtherUser key={userId} id={userId} /> : <EditSelf />}
    </Paper>
  );
}
