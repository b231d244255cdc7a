export { tokenQueries } from './api/tokens.api';
export { TokensPage } from './components/tokens-page';
export { BudgetFields } from './components/budget-fields';
export { BudgetUse } from './components/budget-use';
export { budgetError } from './utils/token-form';
