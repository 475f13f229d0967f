import { TaskRegistry } from '../../process/task-registry.js';
import { CappedOutput, DEFAULT_OUTPUT_CAP } from './output-cap.js';

export type {
  TaskEvent,
  TaskInfo,
  TaskListener,
  TaskOutcome,
  TaskProcess,
  TaskStatus,
  TaskStream,
} from '../../process/task-registry.js';

/**
 * The background tasks of one Node workspace: child processes, each stream's unread output
 * capped in bytes (head and tail, default 16 KiB) as a foreground command's is.
 */
export class ProcessTaskRegistry extends TaskRegistry<Buffer> {
  constructor(outputCap: number = DEFAULT_OUTPUT_CAP) {
    super(() => new CappedOutput(outputCap));
  }
}
