import { Badge } from '@mantine/core';
import { Role } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';

/** 普通用户 / 管理员 / 超级管理员, any other role 未知身份. */
export function RoleTag({ role }: { role: number }) {
  const { t } = useTranslation();
  switch (role) {
    case Role.Common:
      return (
        <Badge variant="light" color="gray">
          {t('users.role.common')}
        </Badge>
      );
    case Role.Admin:
      return (
        <Badge variant="light" color="yellow">
          {t('users.role.admin')}
        </Badge>
      );
    case Role.Root:
      return (
        <Badge variant="light" color="orange">
          {t('users.role.root')}
        </Badge>
      );
    default:
      return (
        <Badge variant="light" color="red">
          {t('users.role.unknown')}
        </Badge>
      );
  }
}
