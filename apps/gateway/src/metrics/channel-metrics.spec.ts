import { Registry } from 'prom-client';
import { registerChannelMetrics } from './channel-metrics';
import { MetricsRegistry } from './metrics-registry';

describe('tollgate_channel_up', () => {
  it('reads the channels when scraped: 1 enabled, 0 disabled by hand or automatically', async () => {
    const channels = [
      { id: 1, status: 1 },
      { id: 2, status: 2 },
      { id: 3, status: 3 },
    ];
    const ours = new MetricsRegistry();
    const plain = new Registry();
    registerChannelMetrics(ours, { all: () => channels });
    registerChannelMetrics(plain, { all: () => channels });
    const text = await ours.metrics();
    expect(text).toContain(
      'tollgate_channel_up{channel_id="1"} 1\ntollgate_channel_up{channel_id="2"} 0\ntollgate_channel_up{channel_id="3"} 0\n',
    );
    // Printed by itself or by prom-client from collect(): the same text.
    expect(text).toBe(await plain.metrics());
    channels.pop();
    channels[1]!.status = 1;
    expect(await ours.metrics()).toBe(
      '# HELP tollgate_channel_up Channel status: 1 enabled, 0 disabled (by hand or automatically).\n' +
        '# TYPE tollgate_channel_up gauge\n' +
        'tollgate_channel_up{channel_id="1"} 1\ntollgate_channel_up{channel_id="2"} 1\n',
    );
  });
});
