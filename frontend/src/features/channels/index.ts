export { channelQueries } from './api/channels.api';
export { channelPerformanceQueries } from './api/channel-performance.api';
export { ChannelsPage } from './components/channels-page';
export { useLivePerformance } from './hooks/use-live-performance';
export { formatLatency, formatRatio } from './utils/performance-format';
