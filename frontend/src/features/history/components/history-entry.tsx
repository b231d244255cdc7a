import { Badge, Group, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/utils/date-time';
import type { HistoryActor, HistoryItem } from '../api/history.api';
import { historyZhCN } from '../locales/zh-cn';
import { roleKey } from '../utils/change-values';
import { visibleChanges } from '../utils/visible-changes';
import { ChangeLine } from './change-line';

const { types: TYPES, entity: ENTITIES, reasons: REASONS } = historyZhCN.history;
const has = <T extends object>(table: T, key: string): key is Extract<keyof T, string> =>
  Object.prototype.hasOwnProperty.call(table, key);

/** The event's name in the reader's language; an unknown one as it is. */
export function typeLabel(t: TFunction, type: string): string {
  return has(TYPES, type) ? t(`history.types.${type}`) : type;
}

const ROLE_COLORS = { root: 'orange', admin: 'yellow', common: 'gray', unknown: 'red' } as const;

function RoleBadge({ role }: { role: number }) {
  const { t } = useTranslation();
  const key = roleKey(role);
  return (
    <Badge size="xs" variant="light" color={ROLE_COLORS[key]} miw="max-content">
      {t(`history.role.${key}`)}
    </Badge>
  );
}

/**
 * A person (name and role badge; in a user's own history an admin shows by role only), the
 * system with its reason, or nobody signed in (a registration).
 */
export function ActorLabel({ actor }: { actor: HistoryActor }) {
  const { t } = useTranslation();
  if (actor.kind === 'system')
    return (
      <Text size="sm" data-testid="history-actor">
        {actor.reason ? t('history.systemReason', { reason: actor.reason }) : t('history.system')}
      </Text>
    );
  if (actor.kind === 'anonymous')
    return (
      <Text size="sm" data-testid="history-actor">
        {t('history.anonymous')}
      </Text>
    );
  return (
    <Group gap={6} wrap="nowrap" data-testid="history-actor">
      {'username' in actor && (
        <Text size="sm" fw={500}>
          {actor.username}
        </Text>
      )}
      <RoleBadge role={actor.role} />
    </Group>
  );
}

/** A reason the server records as a code (a token's status change) in words; free text as it is. */
function reasonText(t: TFunction, reason: string): string {
  return has(REASONS, reason) ? t(`history.reasons.${reason}`) : reason;
}

function entityText(t: TFunction, entity: HistoryItem['entity'] | undefined): string | null {
  if (!entity) return null;
  const kind = has(ENTITIES, entity.kind) ? t(`history.entity.${entity.kind}`) : entity.kind;
  return entity.id > 0 ? `${kind} #${entity.id}` : kind;
}

interface HistoryEntryProps {
  item: HistoryItem;
  /** Who-did-what lists many subjects: name each row's. */
  showEntity?: boolean;
}

/** One event: when, what, who, which fields, why, and the request id and IP it came with. */
export function HistoryEntry({ item, showEntity = false }: HistoryEntryProps) {
  const { t } = useTranslation();
  const entity = showEntity ? entityText(t, item.entity) : null;
  const changes = visibleChanges(item.changes);
  return (
    <Stack gap={4} data-testid="history-item">
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Group gap="xs" wrap="wrap">
          <Badge variant="light" color="blue" miw="max-content">
            {typeLabel(t, item.type)}
          </Badge>
          {entity && (
            <Text size="xs" c="dimmed" data-testid="history-entity">
              {t('history.byActor.subject')}: {entity}
            </Text>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {formatDateTime(item.time)}
        </Text>
      </Group>
      <ActorLabel actor={item.actor} />
      {changes.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('history.noChanges')}
        </Text>
      ) : (
        changes.map((change, index) => (
          <ChangeLine key={index} change={change} kind={item.entity?.kind} />
        ))
      )}
      {item.reason && (
        <Text size="sm" c="dimmed">
          {t('history.reason', { reason: reasonText(t, item.reason) })}
        </Text>
      )}
      {(item.request_id || item.ip) && (
        <Group gap="md" wrap="wrap">
          {item.request_id && (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {t('history.requestId')}: {item.request_id}
            </Text>
          )}
          {item.ip && (
            <Text size="xs" c="dimmed">
              {t('history.ip')}: {item.ip}
            </Text>
          )}
        </Group>
      )}
    </Stack>
  );
}
