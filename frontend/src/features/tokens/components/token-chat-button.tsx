import { Button, Group, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { TokenDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { chatServerAddress, chatTargets, fillChatTemplate } from '@/features/chat';
import { useStatus } from '@/features/status';
import { notifyError } from '@/lib/notify';

/**
 * Opens a chat client with the token filled in: the button uses the first configured chat link,
 * the arrow beside it lists them all.
 */
export function TokenChatButton({ token }: { token: TokenDto }) {
  const { t } = useTranslation();
  const status = useStatus();
  const targets = chatTargets(status);

  const openChat = (template?: string) => {
    if (targets === null) return notifyError(t('tokens.chatLinkBad'));
    const chosen = template ?? targets[0]?.template;
    if (!chosen) return notifyError(t('tokens.chatLinkMissing'));
    const url = fillChatTemplate(chosen, chatServerAddress(status), token.key);
    window.open(url, '_blank', 'noopener');
  };

  return (
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
  );
}
