import type { Projection } from '@tollgate/read-store';
import { TOPUP_ORDER_EVENT_TYPES, type QuotaGranted, type TopUpOrderEvent } from '@tollgate/domain';
import { TopUpStatus } from '@tollgate/contracts';
import { TOPUP_ORDERS, type TopUpOrderDocument } from './topup-order.document';

const REFERENCE_PREFIX = 'topup-';

/** topup_orders: one document per order; `credited` follows the QuotaGranted naming the order. */
export const topUpOrderListProjection: Projection = {
  name: 'topup-orders',
  // 2: TopUpOrderImported (new-api's top_ups rows taken over by the import).
  version: 2,
  collections: [
    {
      name: TOPUP_ORDERS,
      indexes: [
        { fields: { create_time: -1 } },
        { fields: { user_id: 1, create_time: -1 } },
        { fields: { status: 1, create_time: -1 } },
      ],
    },
  ],
  eventTypes: [...TOPUP_ORDER_EVENT_TYPES, 'QuotaGranted'],
  async apply(recorded, session) {
    const orders = session.collection<TopUpOrderDocument>(TOPUP_ORDERS);
    if (recorded.type === 'QuotaGranted') {
      const d = recorded.data as QuotaGranted['data'];
      if (d.reason !== 'topup' || !d.reference?.startsWith(REFERENCE_PREFIX)) return;
      await orders.update(d.reference.slice(REFERENCE_PREFIX.length), {
        $set: { credited: true },
      });
      return;
    }
    const event = { type: recorded.type, data: recorded.data } as TopUpOrderEvent;
    const id = event.data.tradeNo;
    switch (event.type) {
      case 'TopUpOrderCreated':
      case 'TopUpOrderImported': {
        const d = event.data;
        const imported = event.type === 'TopUpOrderImported';
        const { _id, ...doc }: TopUpOrderDocument = {
          _id: id,
          trade_no: d.tradeNo,
          user_id: d.userId,
          amount: d.amount,
          money: d.money,
          quota: d.quota,
          payment_method: d.paymentMethod,
          provider: d.provider,
          status: imported ? event.data.status : TopUpStatus.Pending,
          create_time: d.createdTime,
          complete_time: 0,
          provider_reference: '',
          // An imported paid order's credit is inside the imported balance; any other order's
          // follows its Paid.
          credited: imported && event.data.status === TopUpStatus.Success,
          completed_by: 0,
        };
        // Insert once: a replayed creation must not reopen a paid order.
        await orders.update(_id, { $setOnInsert: doc }, { upsert: true });
        return;
      }
      case 'TopUpOrderPaid': {
        const actor = recorded.metadata['actor'] as { id?: number | null } | undefined;
        await orders.update(id, {
          $set: {
            status: TopUpStatus.Success,
            complete_time: event.data.paidTime,
            provider_reference: event.data.providerReference,
            completed_by: event.data.via === 'admin' ? (actor?.id ?? 0) : 0,
          },
        });
        return;
      }
      case 'TopUpOrderExpired':
        await orders.update(id, { $set: { status: TopUpStatus.Expired } });
        return;
      case 'TopUpOrderFailed':
        await orders.update(id, { $set: { status: TopUpStatus.Failed } });
        return;
    }
  },
};
