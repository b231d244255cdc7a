import { Badge } from '@mantine/core';
import { RedemptionStatus } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';

export function RedemptionStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  switch (status) {
    case RedemptionStatus.Unused:
      return (
        <Badge miw="max-content" variant="light" color="green">
          {t('redemptions.status.unused')}
        </Badge>
      );
    case RedemptionStatus.Disabled:
      return (
        <Badge miw="max-content" variant="light" color="red">
          {t('redemptions.status.disabled')}
        </Badge>
      );
    case RedemptionStatus.Used:
      return (
        <Badge miw="max-content" variant="light" color="gray">
          {t('redemptions.status.used')}
        </Badge>
      );
    default:
      return (
        <Badge miw="max-content" variant="light" color="dark">
          {t('redemptions.status.unknown')}
        </Badge>
      );
  }
}
