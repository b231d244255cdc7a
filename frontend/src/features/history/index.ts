export { historyQueries, type HistorySubject } from './api/history.api';
export { HistoryButton } from './components/history-button';
export { HistoryDrawer } from './components/history-drawer';
export { historyMenuItem } from './components/history-menu-item';
export { OptionsHistoryCard } from './components/options-history-card';
