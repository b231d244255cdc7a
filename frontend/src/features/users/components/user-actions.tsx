import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  isAdmin,
  isRoot,
  Role,
  UserStatus,
  type ManageAction,
  type UserDto,
} from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSessionUser } from '@/features/auth';
import { HistoryButton } from '@/features/history';
import { useManageUser } from '../hooks/use-user-mutations';
import { isDeregistered } from './user-state';

/**
 * Row actions with the status rules of spec 000 §4: enable only when not activated, disable only
 * when activated, nothing at all once deregistered. Promote/demote follow the role ladder. What the
 * server would refuse is not offered: promoting unless root, managing a same-or-higher role, root's
 * own disable/deregister, editing oneself here (the personal tab does that).
 */
export function UserActions({ user }: { user: UserDto }) {
  const { t } = useTranslation();
  const manage = useManageUser();
  const viewer = useSessionUser();
  // An admin's own changes (who-did-what) are a tab of their history drawer.
  const history = (
    <HistoryButton
      subject={{ kind: 'user', id: user.id }}
      name={user.username}
      actorId={isAdmin(user.role) ? user.id : undefined}
    />
  );
  if (isDeregistered(user))
    return (
      <Group gap={4} wrap="nowrap">
        <Text c="dimmed">—</Text>
        {history}
      </Group>
    );
  const viewerIsRoot = viewer !== null && isRoot(viewer.role);
  const manageable = !isRoot(user.role) && (viewerIsRoot || (viewer?.role ?? 0) > user.role);
  const self = viewer?.id === user.id;

  const run = (action: ManageAction) => manage.mutate({ id: user.id, action });
  const busy = manage.isPending;
  // Activated users can be banned, banned ones activated (deregistered rows never get here).
  const toggle =
    user.status === UserStatus.Enabled
      ? ({ action: 'disable', color: 'orange' } as const)
      : ({ action: 'enable', color: 'green' } as const);
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('users.deregisterTitle'),
      children: <Text size="sm">{t('users.deregisterConfirm', { username: user.username })}</Text>,
      labels: { confirm: t('users.deregister'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => run('delete'),
    });

  return (
    <Group gap={4} wrap="nowrap">
      <Button
        size="compact-xs"
        variant="light"
        disabled={busy || !viewerIsRoot || user.role >= Role.Admin}
        onClick={() => run('promote')}
      >
        {t('users.promote')}
      </Button>
      <Button
        size="compact-xs"
        variant="light"
        disabled={busy || !manageable || user.role !== Role.Admin}
        onClick={() => run('demote')}
      >
        {t('users.demote')}
      </Button>
      <Button
        size="compact-xs"
        variant="light"
        color={toggle.color}
        disabled={busy || !manageable}
        onClick={() => run(toggle.action)}
      >
        {t(`users.${toggle.action}`)}
      </Button>
      <Button
        size="compact-xs"
        variant="light"
        color="gray"
        component={Link}
        to={self ? '/setting' : `/user/edit/${user.id}`}
        disabled={!self && !manageable}
      >
        {t('common.edit')}
      </Button>
      <Button
        size="compact-xs"
        variant="light"
        color="red"
        disabled={busy || !manageable}
        onClick={confirmDelete}
      >
        {t('users.deregister')}
      </Button>
      {history}
    </Group>
  );
}
