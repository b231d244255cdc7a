import { useMutation } from '@tanstack/react-query';
import type { CreateUserRequest, ManageUserRequest, UpdateUserRequest } from '@tollgate/contracts';
import { userQueries, usersApi } from '../api/users.api';

// Success toasts and the list refetch come from `meta` (lib/query-client).
const invalidates = userQueries.all;

export const useCreateUser = () =>
  useMutation({
    mutationFn: (body: CreateUserRequest) => usersApi.create(body),
    meta: { success: 'users.created', invalidates },
  });

export const useUpdateUser = () =>
  useMutation({
    mutationFn: (body: UpdateUserRequest) => usersApi.update(body),
    meta: { success: 'users.updated', invalidates },
  });

/** Promote, demote, enable, disable, delete: one endpoint, one toast. */
export const useManageUser = () =>
  useMutation({
    mutationFn: (body: ManageUserRequest) => usersApi.manage(body),
    meta: { success: 'users.operationDone', invalidates },
  });
