export { exitNote, taskInbox } from '../agent/task-inbox.js';
