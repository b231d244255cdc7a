import { Badge } from '@mantine/core';
import { UserStatus, type UserDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { isDeregistered } from '../utils/user-state';

export function StatusTag({ user }: { user: Pick<UserDto, 'status' | 'DeletedAt'> }) {
  const { t } = useTranslation();
  if (isDeregistered(user)) {
    return (
      <Badge variant="light" color="dark">
        {t('users.status.deregistered')}
      </Badge>
    );
  }
  switch (user.status) {
    case UserStatus.Enabled:
      return (
        <Badge variant="light" color="green">
          {t('users.status.enabled')}
        </Badge>
      );
    case UserStatus.Disabled:
      return (
        <Badge variant="light" color="red">
          {t('users.status.disabled')}
        </Badge>
      );
    default:
      return (
        <Badge variant="light" color="gray">
          {t('users.status.unknown')}
        </Badge>
      );
  }
}
