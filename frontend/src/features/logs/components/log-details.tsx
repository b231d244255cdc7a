import { Stack, Text } from '@mantine/core';
import { LogType, type LogDto } from '@tollgate/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '@/features/status';
import { ceilingNotes, type CeilingNote } from '../utils/ceiling-notes';
import { type LogOther, parseOther } from '../utils/log-other';
import { quotaContent } from '../utils/quota-content';

function ceilingText(note: CeilingNote, t: TFunction, formatSpent: (quota: number) => string) {
  switch (note.kind) {
    case 'lowered':
      return note.limit
        ? t('logs.ceiling.lowered', {
            tokens: note.tokens,
            limit: t(`logs.ceiling.limit.${note.limit}`),
          })
        : t('logs.ceiling.loweredUnnamed', { tokens: note.tokens });
    case 'overrun':
      return t('logs.ceiling.overrun', { amount: formatSpent(note.quota) });
    case 'ignored':
      return t('logs.ceiling.ignored');
    case 'cut':
      return t('logs.ceiling.cut');
  }
}

/** The override's member names as one list; undefined when the row names none (JSON from the server). */
function overriddenKeys(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  const names = value.filter((name): name is string => typeof name === 'string');
  return names.length > 0 ? names.join(', ') : undefined;
}

const FALLBACK_REASONS = ['failed', 'context_window', 'content_filter'] as const;

/** "fallback: requested X → answered by Y (reason)"; undefined when the asked model answered. */
function fallbackText(log: LogDto, other: LogOther, t: TFunction): string | undefined {
  if (typeof other.requested_model !== 'string') return undefined;
  const reason = FALLBACK_REASONS.find((known) => known === other.fallback_reason) ?? 'failed';
  return t('logs.fallback', {
    requested: other.requested_model,
    answered: log.model_name,
    reason: t(`logs.fallbackReason.${reason}`),
  });
}

/**
 * The details unfolded under a log row: a consumption row's pricing, cache and reasoning counts and
 * what happened to its output ceiling, then the row's content and, for admins, who made an admin
 * change.
 */
export function LogDetails({ log, admin }: { log: LogDto; admin: boolean }) {
  const { t } = useTranslation();
  const formatSpent = useQuotaFormatter();
  const other = parseOther(log.other);
  const lines: { text: string; lang?: string }[] = [];
  if (log.type === LogType.Consume) {
    if (other.model_price !== undefined && other.model_price > 0) {
      lines.push({
        text: t('logs.price', { price: other.model_price, group: other.group_ratio ?? 1 }),
      });
    } else if (other.model_ratio !== undefined) {
      lines.push({
        text: t('logs.ratios', {
          model: other.model_ratio,
          completion: other.completion_ratio ?? 1,
          group: other.group_ratio ?? 1,
        }),
      });
    }
    if (other.cache_tokens) {
      lines.push({
        text: t('logs.cacheRead', { tokens: other.cache_tokens, ratio: other.cache_ratio ?? 1 }),
      });
    }
    if (other.cache_creation_tokens) {
      lines.push({
        text: t('logs.cacheWrite', {
          tokens: other.cache_creation_tokens,
          ratio: other.cache_creation_ratio ?? 1,
        }),
      });
    }
    if (other.reasoning_tokens) {
      lines.push({ text: t('logs.reasoning', { tokens: other.reasoning_tokens }) });
    }
    for (const note of ceilingNotes(other)) {
      lines.push({ text: ceilingText(note, t, formatSpent) });
    }
    const overridden = overriddenKeys(other.param_override);
    if (overridden) lines.push({ text: t('logs.paramOverride', { keys: overridden }) });
    const fallback = fallbackText(log, other, t);
    if (fallback) lines.push({ text: fallback });
  }
  const failed = log.type === LogType.Error;
  if (failed && typeof other.status_code === 'number')
    lines.push({ text: t('logs.errorStatus', { status: other.status_code }) });
  // The server writes the content in Chinese (the log API's wording, as one-api's): the browser and
  // screen readers are told so in an English console. An error row quotes the upstream as it was.
  if (log.content)
    lines.push(
      failed ? { text: log.content } : { text: quotaContent(log, formatSpent), lang: 'zh-CN' },
    );
  const adminName = other.admin_info?.admin_username;
  if (admin && adminName) lines.push({ text: t('logs.adminBy', { name: adminName }) });
  return (
    <Stack gap={0} maw={720}>
      {lines.map((line) => (
        <Text key={line.text} size="xs" lang={line.lang}>
          {line.text}
        </Text>
      ))}
    </Stack>
  );
}
