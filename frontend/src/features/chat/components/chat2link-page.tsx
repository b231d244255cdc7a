import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useStatus } from '@/features/status';
import { useFirstEnabledKey } from '../hooks/use-first-enabled-key';
import { chatServerAddress, chatTargets, fillChatTemplate } from '../utils/chat-links';
import { ChatStatus } from './chat-status';

/** Sends the window to a chat URL; a seam for tests (jsdom cannot navigate). */
export const windowLocation = {
  assign: (url: string) => window.location.assign(url),
};

/** /chat2link: the window goes to the first chat link, with the first enabled key. */
export function Chat2LinkPage() {
  const { t } = useTranslation();
  const status = useStatus();
  const targets = chatTargets(status);
  const target = targets?.[0];
  const key = useFirstEnabledKey(target !== undefined);
  const url =
    target && key !== undefined
      ? fillChatTemplate(target.template, chatServerAddress(status), key)
      : null;

  useEffect(() => {
    if (url) windowLocation.assign(url);
  }, [url]);

  if (targets === null) return <ChatStatus message={t('chat.parseFailed')} />;
  if (!target) return <ChatStatus message={t('chat.linkMissing')} />;
  return <ChatStatus message={t('chat.loading')} waiting />;
}
