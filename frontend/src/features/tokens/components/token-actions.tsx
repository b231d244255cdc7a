import { Button, Code } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconEye, IconMessageCircle } from '@tabler/icons-react';
import { TokenStatus, type TokenDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { confirmDelete } from '@/components/confirm-delete';
import {
  deleteMenuItem,
  RowActions,
  type RowMenuItem,
  toggleMenuItem,
} from '@/components/row-actions';
import { HistoryDrawer, historyMenuItem } from '@/features/history';
import { useCopy } from '@/hooks/use-copy';
import { useTokenChat } from '../hooks/use-token-chat';
import { useDeleteToken, useSetTokenStatus } from '../hooks/use-token-mutations';

interface TokenActionsProps {
  token: TokenDto;
  onEdit: (token: TokenDto) => void;
}

/** Copy and edit; the key, chat, enable/disable, history and delete in the "…" menu. */
export function TokenActions({ token, onEdit }: TokenActionsProps) {
  const { t } = useTranslation();
  const copy = useCopy();
  const remove = useDeleteToken();
  const setStatus = useSetTokenStatus();
  const chat = useTokenChat(token);
  const [historyOpened, history] = useDisclosure(false);
  const fullKey = `sk-${token.key}`;
  const enabled = token.status === TokenStatus.Enabled;

  const showKey = () =>
    modals.open({
      title: t('tokens.keyOf', { name: token.name }),
      children: (
        <Code block aria-label={t('tokens.keyOf', { name: token.name })} data-testid="token-key">
          {fullKey}
        </Code>
      ),
    });
  const askDelete = () =>
    confirmDelete(t('tokens.deleteTitle'), t('common.deleteConfirm'), () =>
      remove.mutate(token.id),
    );
  const menu: RowMenuItem[] = [
    { label: t('tokens.viewKey'), icon: <IconEye size={14} />, onClick: showKey },
    { label: t('tokens.chat'), icon: <IconMessageCircle size={14} />, onClick: () => chat.open() },
    ...(chat.targets.length > 1
      ? chat.targets.map((target) => ({
          label: t('tokens.chatWith', { name: target.name }),
          onClick: () => chat.open(target.template),
        }))
      : []),
    toggleMenuItem(t, enabled, () =>
      setStatus.mutate({
        id: token.id,
        status: enabled ? TokenStatus.Disabled : TokenStatus.Enabled,
      }),
    ),
    historyMenuItem(t, history.open),
    deleteMenuItem(t, askDelete),
  ];

  return (
    <RowActions
      primary={
        <>
          <Button size="compact-xs" variant="light" onClick={() => void copy(fullKey)}>
            {t('common.copy')}
          </Button>
          <Button size="compact-xs" variant="light" color="gray" onClick={() => onEdit(token)}>
            {t('common.edit')}
          </Button>
        </>
      }
      menu={menu}
      busy={setStatus.isPending || remove.isPending}
    >
      <HistoryDrawer
        opened={historyOpened}
        onClose={history.close}
        subject={{ kind: 'token', id: token.id }}
        name={token.name}
      />
    </RowActions>
  );
}
