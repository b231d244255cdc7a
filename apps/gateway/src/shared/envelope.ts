import type { ApiEnvelope } from '@tollgate/contracts';

export function ok<T>(data?: T, message = ''): ApiEnvelope<T> {
  return data === undefined ? { success: true, message } : { success: true, message, data };
}
