export { taskQueries } from './api/tasks.api';
export { MidjourneyPage } from './components/midjourney-page';
export { TaskPage } from './components/task-page';
