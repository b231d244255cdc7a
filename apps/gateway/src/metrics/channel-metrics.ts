import { ChannelStatus } from '@tollgate/contracts';
import { Gauge, type Registry } from 'prom-client';
import type { SelfPrinting } from './metric-cells';

export interface ChannelSource {
  all(): ReadonlyArray<{ readonly id: number; readonly status: number }>;
}

const NAME = 'tollgate_channel_up';
const HELP = 'Channel status: 1 enabled, 0 disabled (by hand or automatically).';

/**
 * `tollgate_channel_up{channel_id}`: read from the routing table's memory when scraped (no store
 * query), so a status change shows on the next scrape and a deleted channel's series disappears.
 * The text is printed straight from the table (ids need no escaping); `collect()` serves the JSON.
 */
class ChannelUpGauge extends Gauge<'channel_id'> implements SelfPrinting {
  constructor(
    registry: Registry,
    private readonly channels: ChannelSource,
  ) {
    super({
      name: NAME,
      help: HELP,
      labelNames: ['channel_id'],
      registers: [registry],
      collect() {
        this.reset();
        for (const { id, status } of channels.all())
          this.set({ channel_id: String(id) }, status === ChannelStatus.Enabled ? 1 : 0);
      },
    });
  }

  exposition(): string {
    let text = `# HELP ${NAME} ${HELP}\n# TYPE ${NAME} gauge`;
    for (const { id, status } of this.channels.all())
      text += `\n${NAME}{channel_id="${id}"} ${status === ChannelStatus.Enabled ? 1 : 0}`;
    return text;
  }
}

export function registerChannelMetrics(registry: Registry, channels: ChannelSource): void {
  new ChannelUpGauge(registry, channels);
}
