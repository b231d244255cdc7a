import {
  Anchor,
  Badge,
  Code,
  Group,
  Image,
  Modal,
  Progress,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '@/features/status';
import {
  audioClips,
  isTaskStatus,
  prettyJson,
  progressPercent,
  SLOW_SECONDS,
  STATUS_COLORS,
} from '../utils/task-labels';

// Cells the drawing log and the task log share.

/** A task's status: NOT_START … SUCCESS, '' while the submission is still on its way. */
export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  if (status === '') {
    return (
      <Badge miw="max-content" variant="light" color="violet">
        {t('tasks.status.submitting')}
      </Badge>
    );
  }
  const known = isTaskStatus(status);
  return (
    <Badge miw="max-content" variant="light" color={known ? STATUS_COLORS[status] : 'gray'}>
      {known ? t(`tasks.status.${status}`) : t('tasks.unknown')}
    </Badge>
  );
}

/** How long the task ran (seconds), red above a minute; "—" while it has not finished. */
export function Duration({ seconds }: { seconds: number | null }) {
  const { t } = useTranslation();
  if (seconds === null) return <Text size="sm">—</Text>;
  const color = seconds > SLOW_SECONDS ? 'red' : 'green';
  const value = Number.isInteger(seconds) ? seconds : seconds.toFixed(1);
  return (
    <Badge miw="max-content" variant="light" color={color} data-color={color}>
      {t('tasks.seconds', { value })}
    </Badge>
  );
}

export function ProgressCell({ progress, label }: { progress: string; label: string }) {
  const value = progressPercent(progress);
  return (
    <Stack gap={2} miw={90}>
      <Progress value={value} size="sm" aria-label={label} />
      <Text size="xs" c="dimmed">
        {progress || '0%'}
      </Text>
    </Stack>
  );
}

/** Quota given back for a failed task (`refund_quota`), in the console's quota format. */
export function RefundTag({ quota }: { quota: number }) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  if (quota <= 0) return null;
  return (
    <Badge miw="max-content" variant="light" color="teal" tt="none" data-testid="refund-tag">
      {t('tasks.refunded', { value: formatQuota(quota) })}
    </Badge>
  );
}

export function FailReason({ reason }: { reason: string }) {
  if (!reason) return null;
  return (
    <Text size="xs" c="red" maw={240} style={{ wordBreak: 'break-word' }}>
      {reason}
    </Text>
  );
}

/** A long text cut to one line; clicking it opens a dialog with all of it. */
export function TextPreview({ text, title }: { text: string; title: string }) {
  const [opened, setOpened] = useState(false);
  if (!text) return null;
  return (
    <>
      <Anchor
        component="button"
        type="button"
        size="sm"
        maw={200}
        truncate="end"
        ta="left"
        display="block"
        title={text}
        onClick={() => setOpened(true)}
      >
        {text}
      </Anchor>
      <Modal opened={opened} onClose={() => setOpened(false)} title={title} centered size="lg">
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {text}
        </Text>
      </Modal>
    </>
  );
}

/** The result image as a thumbnail; clicking it shows the full image in a lightbox. */
export function ImageThumb({ url }: { url: string }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  if (!url) return null;
  return (
    <>
      <UnstyledButton aria-label={t('tasks.viewImage')} onClick={() => setOpened(true)}>
        <Image src={url} alt={t('tasks.viewImage')} w={56} h={56} radius="sm" fit="cover" />
      </UnstyledButton>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('tasks.imagePreview')}
        centered
        size="auto"
      >
        <Image src={url} alt={t('tasks.imagePreview')} maw="90vw" mah="80vh" fit="contain" />
      </Modal>
    </>
  );
}

/** The task id; clicking it opens the whole row as pretty-printed JSON. */
export function JsonDetail({ label, row }: { label: string; row: object }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Anchor
        component="button"
        type="button"
        size="sm"
        ff="monospace"
        onClick={() => setOpened(true)}
      >
        {label}
      </Anchor>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('tasks.taskDetail')}
        centered
        size="lg"
      >
        <ScrollArea.Autosize mah="70vh">
          <Code block data-testid="task-json">
            {prettyJson(row)}
          </Code>
        </ScrollArea.Autosize>
      </Modal>
    </>
  );
}

/** A player per Suno clip that has an audio address, its title beside it. */
export function AudioPlayers({ data }: { data: unknown }) {
  const { t } = useTranslation();
  const clips = audioClips(data);
  if (clips.length === 0) return null;
  return (
    <Stack gap={4}>
      {clips.map((clip, index) => {
        const title = clip.title || `${t('tasks.clip')} ${index + 1}`;
        return (
          <Group key={clip.id} gap="xs" wrap="nowrap">
            <Text size="xs" maw={120} truncate="end" title={title}>
              {title}
            </Text>
            <audio
              controls
              preload="none"
              src={clip.audio_url}
              aria-label={title}
              style={{ height: 32, maxWidth: 240 }}
            />
          </Group>
        );
      })}
    </Stack>
  );
}
