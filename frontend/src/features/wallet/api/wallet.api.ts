import type { TopUpRequest } from '@tollgate/contracts';
import { http } from '@/lib/http';

export const walletApi = {
  /** Answers the quota the code added. */
  redeem: (body: TopUpRequest) => http.post<number>('/api/user/topup', body),
};
