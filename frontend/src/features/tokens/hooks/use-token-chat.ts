import type { TokenDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { chatServerAddress, chatTargets, fillChatTemplate } from '@/features/chat';
import { useStatus } from '@/features/status';
import { notifyError } from '@/lib/notify';

/**
 * Opening a chat client with the token filled in: the configured chat links, and `open` for one
 * of them (the first when none is named).
 */
export function useTokenChat(token: TokenDto) {
  const { t } = useTranslation();
  const status = useStatus();
  const targets = chatTargets(status);

  const open = (template?: string) => {
    if (targets === null) return notifyError(t('tokens.chatLinkBad'));
    const chosen = template ?? targets[0]?.template;
    if (!chosen) return notifyError(t('tokens.chatLinkMissing'));
    const url = fillChatTemplate(chosen, chatServerAddress(status), token.key);
    window.open(url, '_blank', 'noopener');
  };

  return { targets: targets ?? [], open };
}
