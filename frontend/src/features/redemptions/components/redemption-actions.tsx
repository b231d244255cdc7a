import { Button, Group } from '@mantine/core';
import { RedemptionStatus, type RedemptionDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { confirmDelete } from '@/components/confirm-delete';
import { HistoryButton } from '@/features/history';
import { useCopy } from '@/hooks/use-copy';
import { useDeleteRedemption, useSetRedemptionStatus } from '../hooks/use-redemption-mutations';

interface RedemptionActionsProps {
  redemption: RedemptionDto;
  onEdit: (redemption: RedemptionDto) => void;
}

/** Unused ⇄ disabled by toggle, a used code cannot be enabled, edit only while unused. */
export function RedemptionActions({ redemption, onEdit }: RedemptionActionsProps) {
  const { t } = useTranslation();
  const copy = useCopy();
  const setStatus = useSetRedemptionStatus();
  const remove = useDeleteRedemption();
  const unused = redemption.status === RedemptionStatus.Unused;
  const used = redemption.status === RedemptionStatus.Used;

  const askDelete = () =>
    confirmDelete(t('redemptions.deleteTitle'), t('common.deleteConfirm'), () =>
      remove.mutate(redemption.id),
    );

  return (
    <Group gap={4} wrap="nowrap">
      <Button size="compact-xs" variant="light" onClick={() => void copy(redemption.key)}>
        {t('common.copy')}
      </Button>
      <Button size="compact-xs" variant="light" color="red" onClick={askDelete}>
        {t('common.delete')}
      </Button>
      <Button
        size="compact-xs"
        variant="light"
        color={unused ? 'orange' : 'green'}
        disabled={used}
        loading={setStatus.isPending}
        onClick={() =>
          setStatus.mutate({
            id: redemption.id,
            status: unused ? RedemptionStatus.Disabled : RedemptionStatus.Unused,
          })
        }
      >
        {unused ? t('common.disable') : t('common.enable')}
      </Button>
      <HistoryButton
        subject={{ kind: 'redemption', id: redemption.id }}
        name={redemption.name || `#${redemption.id}`}
      />
      <Button
        size="compact-xs"
        variant="light"
        color="gray"
        disabled={!unused}
        onClick={() => onEdit(redemption)}
      >
        {t('common.edit')}
      </Button>
    </Group>
  );
}
