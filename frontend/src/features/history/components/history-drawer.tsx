import { Drawer, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { HistorySubject, QuotaSubject } from '../api/history.api';
import { ActorHistory } from './actor-history';
import { BalanceAt } from './balance-at';
import { SubjectHistory } from './subject-history';

export interface HistoryDrawerProps {
  opened: boolean;
  onClose: () => void;
  subject: HistorySubject;
  /** What the subject is called (username, token or channel name, code name). */
  name?: string;
  /** For a user who is an admin, seen by an admin: their own changes get a tab. */
  actorId?: number;
}

const quotaSubject = (subject: HistorySubject): QuotaSubject | null =>
  subject.kind === 'user' || subject.kind === 'token' ? subject : null;

/** The history of one subject; users and tokens also have the balance-at view. */
export function HistoryDrawer({ opened, onClose, subject, name, actorId }: HistoryDrawerProps) {
  const { t } = useTranslation();
  const title =
    subject.kind === 'options'
      ? t('history.title.options')
      : subject.kind === 'user' && subject.id === 'self'
        ? t('history.title.self')
        : t(`history.title.${subject.kind}`, { name: name ?? `#${subject.id}` });
  const quota = quotaSubject(subject);
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="lg" title={title}>
      {opened && (
        <Tabs defaultValue="changes" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="changes">{t('history.tabs.changes')}</Tabs.Tab>
            {quota && <Tabs.Tab value="balance">{t('history.tabs.balanceAt')}</Tabs.Tab>}
            {actorId !== undefined && (
              <Tabs.Tab value="actor">{t('history.tabs.byActor')}</Tabs.Tab>
            )}
          </Tabs.List>
          <Tabs.Panel value="changes">
            <SubjectHistory subject={subject} />
          </Tabs.Panel>
          {quota && (
            <Tabs.Panel value="balance">
              <BalanceAt subject={quota} />
            </Tabs.Panel>
          )}
          {actorId !== undefined && (
            <Tabs.Panel value="actor">
              <ActorHistory actorId={actorId} />
            </Tabs.Panel>
          )}
        </Tabs>
      )}
    </Drawer>
  );
}
