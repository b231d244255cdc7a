import { Button, Code, Group, Popover } from '@mantine/core';
import { TokenStatus, type TokenDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { confirmDelete } from '@/components/confirm-delete';
import { HistoryButton } from '@/features/history';
import { useCopy } from '@/hooks/use-copy';
import { useDeleteToken, useSetTokenStatus } from '../hooks/use-token-mutations';
import { TokenChatButton } from './token-chat-button';

interface TokenActionsProps {
  token: TokenDto;
  onEdit: (token: TokenDto) => void;
}

/** Per-row actions: view key, copy, chat, delete, enable/disable, history, edit. */
export function TokenActions({ token, onEdit }: TokenActionsProps) {
  const { t } = useTranslation();
  const copy = useCopy();
  const remove = useDeleteToken();
  const fullKey = `sk-${token.key}`;

  const askDelete = () =>
    confirmDelete(t('tokens.deleteTitle'), t('common.deleteConfirm'), () =>
      remove.mutate(token.id),
    );

  return (
    <Group gap={4} wrap="nowrap">
      <KeyPopover token={token} fullKey={fullKey} />
      <Button size="compact-xs" variant="light" onClick={() => void copy(fullKey)}>
        {t('common.copy')}
      </Button>
      <TokenChatButton token={token} />
      <Button size="compact-xs" variant="light" color="red" onClick={askDelete}>
        {t('common.delete')}
      </Button>
      <StatusToggle token={token} />
      <HistoryButton subject={{ kind: 'token', id: token.id }} name={token.name} />
      <Button size="compact-xs" variant="light" color="gray" onClick={() => onEdit(token)}>
        {t('common.edit')}
      </Button>
    </Group>
  );
}

/** "View key": the full key in a popover. */
function KeyPopover({ token, fullKey }: { token: TokenDto; fullKey: string }) {
  const { t } = useTranslation();
  return (
    <Popover position="bottom" withArrow shadow="md">
      <Popover.Target>
        <Button size="compact-xs" variant="light" color="gray">
          {t('tokens.viewKey')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Code aria-label={t('tokens.keyOf', { name: token.name })} data-testid="token-key">
          {fullKey}
        </Code>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Disables an enabled token, enables any other. */
function StatusToggle({ token }: { token: TokenDto }) {
  const { t } = useTranslation();
  const setStatus = useSetTokenStatus();
  const enabled = token.status === TokenStatus.Enabled;
  return (
    <Button
      size="compact-xs"
      variant="light"
      color={enabled ? 'orange' : 'green'}
      loading={setStatus.isPending}
      onClick={() =>
        setStatus.mutate({
          id: token.id,
          status: enabled ? TokenStatus.Disabled : TokenStatus.Enabled,
        })
      }
    >
      {enabled ? t('common.disable') : t('common.enable')}
    </Button>
  );
}
