export { tokenQueries } from './api/tokens.api';
export { TokensPage } from './components/tokens-page';
