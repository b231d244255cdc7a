import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconHistory } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { HistoryDrawer, type HistoryDrawerProps } from './history-drawer';

type HistoryButtonProps = Omit<HistoryDrawerProps, 'opened' | 'onClose'> & {
  /** A small icon for table rows, or a labelled button (cards, edit pages). */
  variant?: 'icon' | 'button';
  label?: string;
};

/** "History": opens the subject's history drawer. */
export function HistoryButton({ variant = 'icon', label, ...drawer }: HistoryButtonProps) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const name = drawer.name ?? '';
  const text = label ?? t('history.action');
  return (
    <>
      {variant === 'icon' ? (
        <Tooltip label={text}>
          <ActionIcon
            size={22}
            variant="light"
            color="gray"
            aria-label={name ? t('history.actionOf', { name }) : text}
            onClick={open}
          >
            <IconHistory size={14} />
          </ActionIcon>
        </Tooltip>
      ) : (
        <Button
          size="compact-sm"
          variant="light"
          color="gray"
          leftSection={<IconHistory size={14} />}
          onClick={open}
        >
          {text}
        </Button>
      )}
      <HistoryDrawer {...drawer} opened={opened} onClose={close} />
    </>
  );
}
