import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  DEFAULT_PAGE_SIZE,
  type PageOf,
  type TopUpOrderDto,
  type TopUpStatusValue,
} from '@tollgate/contracts';
import type { Filter, ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { escapeRegex } from '../../shared/escape-regex';
import { TOPUP_ORDERS, toTopUpOrderDto, type TopUpOrderDocument } from '../topup-order.document';

export interface TopUpOrderFilter {
  /** Only this user's orders (always set for GET /api/user/topup/self). */
  readonly userId?: number;
  readonly status?: TopUpStatusValue;
  /** Part of the trade no, or (digits) a user id. */
  readonly keyword?: string;
}

/** Orders newest first, `{items,total,page,page_size}` with a 1-based page. */
export class ListTopUpOrdersQuery extends Query<PageOf<TopUpOrderDto>> {
  constructor(
    readonly page: number,
    readonly pageSize: number,
    readonly filter: TopUpOrderFilter = {},
  ) {
    super();
  }
}

@QueryHandler(ListTopUpOrdersQuery)
export class ListTopUpOrdersHandler implements IQueryHandler<ListTopUpOrdersQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ page, pageSize, filter }: ListTopUpOrdersQuery) {
    const size = pageSize || DEFAULT_PAGE_SIZE;
    const current = Math.max(1, page);
    const where: Filter = {};
    if (filter.userId !== undefined) where['user_id'] = filter.userId;
    if (filter.status !== undefined) where['status'] = filter.status;
    const term = filter.keyword?.trim();
    if (term) {
      const anyOf: Filter[] = [{ trade_no: { $regex: escapeRegex(term), $options: 'i' } }];
      if (/^\d{1,15}$/.test(term)) anyOf.push({ user_id: Number(term) });
      where['$or'] = anyOf;
    }
    const orders = this.readStore.collection<TopUpOrderDocument>(TOPUP_ORDERS);
    const [docs, total] = await Promise.all([
      orders.find(where, {
        sort: { create_time: -1, _id: -1 },
        skip: (current - 1) * size,
        limit: size,
      }),
      orders.count(where),
    ]);
    return { items: docs.map(toTopUpOrderDto), total, page: current, page_size: size };
  }
}
