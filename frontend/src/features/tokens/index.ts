export { tokenQueries } from './api/tokens.api';
export { TokensPage } from './components/tokens-page';
export { BudgetFields } from './components/budget-fields';
