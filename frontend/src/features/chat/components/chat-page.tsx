import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useStatus } from '@/features/status';
import { useFirstEnabledKey } from '../hooks/use-first-enabled-key';
import { chatServerAddress, chatTargets, fillChatTemplate } from '../utils/chat-links';
import { ChatStatus } from './chat-status';

/** The chat embed page: chat link {id} in an iframe, with the first enabled key. */
export function ChatPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const status = useStatus();
  const targets = chatTargets(status);
  const index = id === undefined ? 0 : Number(id);
  const target = Number.isInteger(index) ? targets?.[index] : undefined;
  const key = useFirstEnabledKey(target !== undefined);

  if (targets === null) return <ChatStatus message={t('chat.parseFailed')} />;
  if (!target) return <ChatStatus message={t('chat.linkMissing')} />;
  if (key === undefined) return <ChatStatus message={t('chat.redirecting')} waiting />;
  return (
    <iframe
      src={fillChatTemplate(target.template, chatServerAddress(status), key)}
      title={target.name || t('chat.frameTitle')}
      data-testid="chat-frame"
      allow="camera;microphone;clipboard-write"
      style={{ flex: 1, width: '100%', minHeight: 'calc(100dvh - 56px)', border: 'none' }}
    />
  );
}
