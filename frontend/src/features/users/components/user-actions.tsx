import { Button, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconArrowDown, IconArrowUp, IconUserX } from '@tabler/icons-react';
import { isAdmin, UserStatus, type ManageAction, type UserDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RowActions, type RowMenuItem } from '@/components/row-actions';
import { useSessionUser } from '@/features/auth';
import { HistoryDrawer, historyMenuItem } from '@/features/history';
import { useManageUser } from '../hooks/use-user-mutations';
import { isDeregistered, userRights } from '../utils/user-state';

/**
 * Row actions: edit and enable / disable, then promote, demote, deregister and history in the "…"
 * menu; nothing but the history once deregistered. Promote/demote follow the role ladder. What the
 * server would refuse is not offered (see `userRights`); editing oneself goes to the personal tab.
 */
export function UserActions({ user }: { user: UserDto }) {
  const { t } = useTranslation();
  const [historyOpened, history] = useDisclosure(false);
  const manage = useManageUser();
  const rights = userRights(useSessionUser(), user);
  const deregistered = isDeregistered(user);
  const run = (action: ManageAction) => manage.mutate({ id: user.id, action });
  const busy = manage.isPending;
  const confirmDeregister = () =>
    modals.openConfirmModal({
      title: t('users.deregisterTitle'),
      children: <Text size="sm">{t('users.deregisterConfirm', { username: user.username })}</Text>,
      labels: { confirm: t('users.deregister'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => run('delete'),
    });
  const historyItem = historyMenuItem(t, history.open);
  const menu: RowMenuItem[] = deregistered
    ? [historyItem]
    : [
        {
          label: t('users.promote'),
          icon: <IconArrowUp size={14} />,
          disabled: busy || !rights.promote,
          onClick: () => run('promote'),
        },
        {
          label: t('users.demote'),
          icon: <IconArrowDown size={14} />,
          disabled: busy || !rights.demote,
          onClick: () => run('demote'),
        },
        historyItem,
        {
          label: t('users.deregister'),
          icon: <IconUserX size={14} />,
          color: 'red',
          divided: true,
          disabled: busy || !rights.manage,
          onClick: confirmDeregister,
        },
      ];

  return (
    <RowActions
      primary={deregistered ? <Text c="dimmed">—</Text> : <ManageButtons user={user} />}
      menu={menu}
      busy={busy}
    >
      <HistoryDrawer
        opened={historyOpened}
        onClose={history.close}
        subject={{ kind: 'user', id: user.id }}
        name={user.username}
        // An admin's own changes (who-did-what) are a tab of their history drawer.
        actorId={isAdmin(user.role) ? user.id : undefined}
      />
    </RowActions>
  );
}

/** Edit, and disable an activated user or enable a banned one (deregistered rows never get here). */
function ManageButtons({ user }: { user: UserDto }) {
  const { t } = useTranslation();
  const manage = useManageUser();
  const rights = userRights(useSessionUser(), user);
  const toggle =
    user.status === UserStatus.Enabled
      ? ({ action: 'disable', color: 'orange' } as const)
      : ({ action: 'enable', color: 'green' } as const);
  return (
    <>
      <Button
        size="compact-xs"
        variant="light"
        color="gray"
        component={Link}
        to={rights.self ? '/setting' : `/user/edit/${user.id}`}
        disabled={!rights.self && !rights.manage}
      >
        {t('common.edit')}
      </Button>
      <Button
        size="compact-xs"
        variant="light"
        color={toggle.color}
        disabled={manage.isPending || !rights.manage}
        onClick={() => manage.mutate({ id: user.id, action: toggle.action })}
      >
        {t(`users.${toggle.action}`)}
      </Button>
    </>
  );
}
