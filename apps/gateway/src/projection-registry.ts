import type { Projection } from '@tollgate/read-store';
import type { AppConfig } from './config/app-config';
import { channelsProjection } from './channels/channels.projection';
import type { ChannelKeyOpener } from './channels/sealed-key-scrubber';
import { SecretBox } from './infrastructure/secret-box';
import { optionsProjection } from './options/options.projection';
import { uniqueClaimsProjection } from './users/unique-claims.projection';
import { usersProjection } from './users/users.projection';
import { quotaDataProjection } from './usage-data/quota-data.projection';
import { callOutcomesProjection } from './usage-data/call-outcomes.projection';
import { channelPerformanceProjection } from './usage-data/channel-performance.projection';
import { tokenListProjection } from './tokens/token-list.projection';
import { redemptionListProjection } from './redemptions/redemption-list.projection';
import { logsProjection } from './logs/logs.projection';
import { setupStateProjection } from './setup/setup-state.projection';
import { auditIndexProjection } from './history/audit-index.projection';
import { ledgerUsageProjection } from './history/ledger-usage.projection';
import { topUpOrderListProjection } from './topup/topup-order-list.projection';
import { taskLogProjection } from './tasks/read/task-log.projection';

/**
 * Every read model of the gateway. `openKey` lets the channels read model mask a channel key
 * quoted in a status reason (docs/relay.md, "Secrets in upstream texts").
 */
export const allProjections = (openKey?: ChannelKeyOpener): readonly Projection[] => [
  usersProjection,
  optionsProjection,
  uniqueClaimsProjection,
  tokenListProjection,
  redemptionListProjection,
  logsProjection,
  channelsProjection(openKey),
  quotaDataProjection,
  callOutcomesProjection,
  channelPerformanceProjection,
  setupStateProjection,
  auditIndexProjection,
  ledgerUsageProjection,
  topUpOrderListProjection,
  taskLogProjection,
];

/** What the gateway, the projector and the rebuild CLI project with: keys opened with the server secret. */
export function serverProjections(config: Pick<AppConfig, 'sessionSecret'>): readonly Projection[] {
  const box = new SecretBox(config.sessionSecret);
  return allProjections((sealed) => box.open(sealed));
}

/** The read models without a key opener: their collections, and tests whose events quote no key. */
export const ALL_PROJECTIONS = allProjections();
