import { useMutation } from '@tanstack/react-query';
import { topUpQueries, walletApi } from '../api/wallet.api';

/** Admin: mark an order paid outside as paid (the server credits the user, the admin as actor). */
export const useCompleteOrder = () =>
  useMutation({
    mutationFn: (tradeNo: string) => walletApi.complete({ trade_no: tradeNo }),
    meta: { success: 'wallet.orders.completed', invalidates: topUpQueries.all },
  });
