import { Button, Code, Group, Menu, Popover } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { TokenStatus, type TokenDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { confirmDelete } from '@/components/confirm-delete';
import { chatServerAddress, chatTargets, fillChatTemplate } from '@/features/chat';
import { HistoryButton } from '@/features/history';
import { useStatus } from '@/features/status';
import { useCopy } from '@/hooks/use-copy';
import { notifyError } from '@/lib/notify';
import { useDeleteToken, useSetTokenStatus } from '../hooks/use-token-mutations';

interface TokenActionsProps {
  token: TokenDto;
  onEdit: (token: TokenDto) => void;
}

/** Per-row actions of spec 001 §2: view key, copy, chat, delete, enable/disable, edit. */
export function TokenActions({ token, onEdit }: TokenActionsProps) {
  const { t } = useTranslation();
  const status = useStatus();
  const copy = useCopy();
  const setStatus = useSetTokenStatus();
  const remove = useDeleteToken();
  const fullKey = `sk-${token.key}`;
  const targets = chatTargets(status);
  const enabled = token.status === TokenStatus.Enabled;

  const openChat = (template?: string) => {
    if (targets === null) return notifyError(t('tokens.chatLinkBad'));
    const chosen = template ?? targets[0]?.template;
    if (!chosen) return notifyError(t('tokens.chatLinkMissing'));
    const url = fillChatTemplate(chosen, chatServerAddress(status), token.key);
    window.open(url, '_blank', 'noopener');
  };

  const askDelete = () =>
    confirmDelete(t('tokens.deleteTitle'), t('common.deleteConfirm'), () =>
      remove.mutate(token.id),
    );

  return (
    <Group gap={4} wrap="nowrap">
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
      <Button size="compact-xs" variant="light" onClick={() => void copy(fullKey)}>
        {t('common.copy')}
      </Button>
      <Group gap={0} wrap="nowrap">
        <Button
          size="compact-xs"
          variant="light"
          color="teal"
          style={{ borderTopRightRadius: 0, borderBottomRightRadius: 0 }}
          onClick={() => openChat()}
        >
          {t('tokens.chat')}
        </Button>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button
              size="compact-xs"
              variant="light"
              color="teal"
              px={4}
              aria-label={t('tokens.chatTargets')}
              style={{ borderTopLeftRadius: 0, borderBottomLeftRadius: 0 }}
            >
              <IconChevronDown size={12} />
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {(targets ?? []).map((target, index) => (
              <Menu.Item key={index} onClick={() => openChat(target.template)}>
                {target.name}
              </Menu.Item>
            ))}
            {(targets ?? []).length === 0 && (
              <Menu.Item disabled>{t('tokens.chatLinkMissing')}</Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Button size="compact-xs" variant="light" color="red" onClick={askDelete}>
        {t('common.delete')}
      </Button>
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
      <HistoryButton subject={{ kind: 'token', id: token.id }} name={token.name} />
      <Button size="compact-xs" variant="light" color="gray" onClick={() => onEdit(token)}>
        {t('common.edit')}
      </Button>
    </Group>
  );
}
