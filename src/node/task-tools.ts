export { taskTools } from '../tools/task-tools.js';
