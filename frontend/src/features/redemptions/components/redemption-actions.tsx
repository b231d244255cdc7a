import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconEdit } from '@tabler/icons-react';
import { RedemptionStatus, type RedemptionDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { confirmDelete } from '@/components/confirm-delete';
import { deleteMenuItem, RowActions } from '@/components/row-actions';
import { HistoryDrawer, historyMenuItem } from '@/features/history';
import { useCopy } from '@/hooks/use-copy';
import { useDeleteRedemption, useSetRedemptionStatus } from '../hooks/use-redemption-mutations';

interface RedemptionActionsProps {
  redemption: RedemptionDto;
  onEdit: (redemption: RedemptionDto) => void;
}

/**
 * Copy and unused ⇄ disabled (a used code cannot be enabled); edit (only while unused), history
 * and delete in the "…" menu.
 */
export function RedemptionActions({ redemption, onEdit }: RedemptionActionsProps) {
  const { t } = useTranslation();
  const copy = useCopy();
  const setStatus = useSetRedemptionStatus();
  const remove = useDeleteRedemption();
  const [historyOpened, history] = useDisclosure(false);
  const unused = redemption.status === RedemptionStatus.Unused;
  const used = redemption.status === RedemptionStatus.Used;

  const askDelete = () =>
    confirmDelete(t('redemptions.deleteTitle'), t('common.deleteConfirm'), () =>
      remove.mutate(redemption.id),
    );

  return (
    <RowActions
      primary={
        <>
          <Button size="compact-xs" variant="light" onClick={() => void copy(redemption.key)}>
            {t('common.copy')}
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
        </>
      }
      menu={[
        {
          label: t('common.edit'),
          icon: <IconEdit size={14} />,
          disabled: !unused,
          onClick: () => onEdit(redemption),
        },
        historyMenuItem(t, history.open),
        deleteMenuItem(t, askDelete),
      ]}
      busy={remove.isPending}
    >
      <HistoryDrawer
        opened={historyOpened}
        onClose={history.close}
        subject={{ kind: 'redemption', id: redemption.id }}
        name={redemption.name || `#${redemption.id}`}
      />
    </RowActions>
  );
}
