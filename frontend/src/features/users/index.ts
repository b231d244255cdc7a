export { groupQueries, userQueries } from './api/users.api';
export { EditUserPage } from './components/edit-user-page';
export { UsersPage } from './components/users-page';
