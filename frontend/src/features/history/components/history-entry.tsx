import { Badge, Group, Stack, Text } from '@mantine/core';
import { Role } from '@tollgate/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '@/features/status';
import { formatDateTime } from '@/utils/date-time';
import type { HistoryActor, HistoryChange, HistoryItem } from '../api/history.api';
import { historyZhCN } from '../locales/zh-cn';

const { types: TYPES, fields: FIELDS, entity: ENTITIES } = historyZhCN.history;
const has = <T extends object>(table: T, key: string): key is Extract<keyof T, string> =>
  Object.prototype.hasOwnProperty.call(table, key);

/** The event's name in the reader's language; an unknown one as it is. */
export function typeLabel(t: TFunction, type: string): string {
  return has(TYPES, type) ? t(`history.types.${type}`) : type;
}

function roleKey(role: number) {
  if (role >= Role.Root) return 'root' as const;
  if (role >= Role.Admin) return 'admin' as const;
  if (role >= Role.Common) return 'common' as const;
  return 'unknown' as const;
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

function useValueFormatter() {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  return (field: string, value: unknown): string => {
    if (value === undefined || value === null || value === '') return t('history.emptyValue');
    if (typeof value === 'number' && /quota/i.test(field)) return formatQuota(value);
    if (typeof value === 'number' && field === 'role') return t(`history.role.${roleKey(value)}`);
    if (typeof value === 'boolean') return value ? t('history.yes') : t('history.no');
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  };
}

/**
 * One field: "before → after"; only "changed" for a secret; a balance change the event records
 * as an amount only (a grant) as a signed amount.
 */
export function ChangeLine({ change }: { change: HistoryChange }) {
  const { t } = useTranslation();
  const format = useValueFormatter();
  const field = has(FIELDS, change.field) ? t(`history.fields.${change.field}`) : change.field;
  const amountOnly =
    change.before === null && change.after === null && typeof change.delta === 'number';
  let body;
  if (change.secret) {
    body = (
      <Text span fs="italic">
        {t('history.changed')}
      </Text>
    );
  } else if (amountOnly) {
    const delta = change.delta ?? 0;
    body = (
      <Text span fw={500}>
        {delta >= 0 ? '+' : '−'}
        {format(change.field, Math.abs(delta))}
      </Text>
    );
  } else {
    body = (
      <>
        <Text span c="dimmed">
          {format(change.field, change.before)}
        </Text>
        {' → '}
        <Text span fw={500}>
          {format(change.field, change.after)}
        </Text>
      </>
    );
  }
  return (
    <Text size="sm" data-testid="history-change" style={{ overflowWrap: 'anywhere' }}>
      <Text span c="dimmed">
        {field}:{' '}
      </Text>
      {body}
    </Text>
  );
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
      {item.changes.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('history.noChanges')}
        </Text>
      ) : (
        item.changes.map((change, index) => <ChangeLine key={index} change={change} />)
      )}
      {item.reason && (
        <Text size="sm" c="dimmed">
          {t('history.reason', { reason: item.reason })}
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
