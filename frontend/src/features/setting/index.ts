export { selfApi, selfQueries } from './api/self.api';
export { SettingPage } from './components/setting-page';
export { useSelf } from './hooks/use-self';
