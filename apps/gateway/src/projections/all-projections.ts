import type { Projection } from '@tollgate/read-store';
import { channelsProjection } from '../channels/channels.projection';
import { optionsProjection } from './options.projection';
import { uniqueClaimsProjection } from './unique-claims.projection';
import { usersProjection } from './users.projection';
import { quotaDataProjection } from '../usage-data/quota-data.projection';
import { tokenListProjection } from '../tokens/token-list.projection';
import { redemptionListProjection } from '../redemptions/redemption-list.projection';
import { logsProjection } from '../logs/logs.projection';
import { setupStateProjection } from '../setup/setup-state.projection';
import { auditIndexProjection } from '../history/audit-index.projection';
import { ledgerUsageProjection } from '../history/ledger-usage.projection';
import { topUpOrderListProjection } from '../topup/topup-order-list.projection';
import { taskLogProjection } from '../tasks/read/task-log.projection';

/** Every read model of the gateway; the rebuild CLI and the runners use this one list. */
export const ALL_PROJECTIONS: readonly Projection[] = [
  usersProjection,
  optionsProjection,
  uniqueClaimsProjection,
  tokenListProjection,
  redemptionListProjection,
  logsProjection,
  channelsProjection,
  quotaDataProjection,
  setupStateProjection,
  auditIndexProjection,
  ledgerUsageProjection,
  topUpOrderListProjection,
  taskLogProjection,
];
