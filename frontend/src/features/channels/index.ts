export { channelQueries } from './api/channels.api';
export { ChannelsPage } from './components/channels-page';
