import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateUserRequest, ManageUserRequest, UpdateUserRequest } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '@/lib/notify';
import { userQueries, usersApi } from '../api/users.api';

function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: userQueries.all });
}

export function useCreateUser() {
  const { t } = useTranslation();
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: CreateUserRequest) => usersApi.create(body),
    onSuccess: () => {
      notifySuccess(t('users.created'));
      return invalidate();
    },
  });
}

export function useUpdateUser() {
  const { t } = useTranslation();
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: UpdateUserRequest) => usersApi.update(body),
    onSuccess: () => {
      notifySuccess(t('users.updated'));
      return invalidate();
    },
  });
}

/** Promote, demote, enable, disable, delete: one endpoint, one toast. */
export function useManageUser() {
  const { t } = useTranslation();
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: ManageUserRequest) => usersApi.manage(body),
    onSuccess: () => {
      notifySuccess(t('users.operationDone'));
      return invalidate();
    },
  });
}
