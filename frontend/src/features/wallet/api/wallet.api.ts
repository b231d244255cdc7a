import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  CompleteTopUpRequest,
  EpayFormParams,
  EpayPayRequest,
  PageOf,
  TopUpOrderDto,
  TopUpRequest,
} from '@tollgate/contracts';
import { http, requestEnvelope } from '@/lib/http';

/** Every call of the wallet page (codes, online top-up, orders): a renamed route is one edit here. */
const ROUTES = {
  redeem: '/api/user/topup',
  epayAmount: '/api/user/amount',
  epayPay: '/api/user/pay',
  stripe: '/api/user/createStripe',
  stripeAmount: '/api/user/stripe/amount',
  ownOrders: '/api/user/topup/self',
  allOrders: '/api/user/topup',
  complete: '/api/user/topup/complete',
} as const;

/** The Epay answer: the signed form and where the browser posts it. */
export interface EpayCheckout {
  url: string;
  params: EpayFormParams;
}

export interface OrderListParams {
  page: number;
  pageSize: number;
  /** Admin list only: one user's orders ('' for everyone's). */
  userId: string;
  /** Admin list only: part of a trade number. */
  keyword: string;
  /** Admin list only: '' for every status. */
  status: string;
}

/** The Stripe answer's URL, whether it comes as the data itself or inside it. */
function checkoutUrl(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    for (const key of ['url', 'pay_link', 'checkout_url']) {
      if (typeof record[key] === 'string') return record[key];
    }
  }
  return '';
}

function fetchOrders(
  params: OrderListParams,
  admin: boolean,
  signal: AbortSignal,
): Promise<PageOf<TopUpOrderDto>> {
  const paging = { p: params.page, page_size: params.pageSize };
  if (!admin) return http.get(ROUTES.ownOrders, paging, signal);
  return http.get(
    ROUTES.allOrders,
    {
      ...paging,
      user_id: /^\d+$/.test(params.userId) ? Number(params.userId) : undefined,
      keyword: params.keyword || undefined,
      status: params.status || undefined,
    },
    signal,
  );
}

/** The orders lists; a completed or paid order invalidates `topUpQueries.all`. */
export const topUpQueries = {
  all: ['topups'] as const,
  orders: (params: OrderListParams, admin: boolean) =>
    queryOptions({
      queryKey: [...topUpQueries.all, admin ? 'all' : 'self', params] as const,
      queryFn: ({ signal }) => fetchOrders(params, admin, signal),
      placeholderData: keepPreviousData,
    }),
  /**
   * What `amount` costs: Epay's money (amount × Price × group ratio, e.g. '7.30') or what Stripe
   * will charge (amount × StripeUnitPrice).
   */
  money: (provider: 'epay' | 'stripe', amount: number) =>
    queryOptions({
      queryKey: [...topUpQueries.all, 'money', provider, amount] as const,
      queryFn: () =>
        http.post<string | number>(provider === 'epay' ? ROUTES.epayAmount : ROUTES.stripeAmount, {
          amount,
        }),
      meta: { silent: true },
    }),
};

export const walletApi = {
  /** Answers the quota the code added. */
  redeem: (body: TopUpRequest) => http.post<number>(ROUTES.redeem, body),
  /** Creates an Epay order: `{data: signed params, url}`. */
  epayPay: async (body: EpayPayRequest): Promise<EpayCheckout> => {
    const envelope = await requestEnvelope<EpayFormParams>('POST', ROUTES.epayPay, { body });
    const { url } = envelope as typeof envelope & { url?: string };
    return { url: url ?? '', params: envelope.data ?? {} };
  },
  /** Creates a Stripe checkout session; answers its URL. */
  createStripe: async (amount: number): Promise<string> =>
    checkoutUrl(await http.post<unknown>(ROUTES.stripe, { amount })),
  complete: (body: CompleteTopUpRequest) => http.post<unknown>(ROUTES.complete, body),
};
