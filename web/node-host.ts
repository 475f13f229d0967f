import {
  createNodeCommand,
  type ScriptCopyLimits,
  type ScriptJob,
  type ScriptOutcome,
} from '../src/shell/commands/shell/node.js';
import type { CommandFn } from '../src/shell/context.js';

/** What the script worker posts: output as it happens, then the outcome. */
export type ScriptMessage =
  | { type: 'out' | 'err'; text: string }
  | { type: 'done'; exitCode: number; writes: Array<[string, Uint8Array | null]> };

/**
 * Run one script in a throwaway module worker. Output streams back as it is written, so a script
 * that times out still shows what it printed; the timeout terminates the worker and its writes
 * are dropped.
 */
export function runScriptInWorker(job: ScriptJob, stop?: AbortSignal): Promise<ScriptOutcome> {
  const worker = new Worker(new URL('./node-worker.js', import.meta.url), { type: 'module' });
  let stdout = '';
  let stderr = '';
  return new Promise((resolve) => {
    const killed = () => finish({ exitCode: -1, timedOut: true, writes: [] });
    const finish = (outcome: Omit<ScriptOutcome, 'stdout' | 'stderr'>) => {
      clearTimeout(timer);
      stop?.removeEventListener('abort', killed);
      worker.terminate();
      resolve({ ...outcome, stdout, stderr });
    };
    const timer = setTimeout(() => finish({ exitCode: -1, timedOut: true, writes: [] }), job.timeoutMs);
    worker.onmessage = (event: MessageEvent<ScriptMessage>) => {
      const m = event.data;
      if (m.type === 'done') finish({ exitCode: m.exitCode, timedOut: false, writes: m.writes });
      else if (m.type === 'out') stdout += m.text;
      else stderr += m.text;
    };
    worker.onerror = (event) => {
      event.preventDefault();
      stderr += `node: the script worker failed: ${event.message}\n`;
      finish({ exitCode: 1, timedOut: false, writes: [] });
    };
    // A killed background task ends its script at once, not at the script's next shell step.
    if (stop?.aborted) return killed();
    stop?.addEventListener('abort', killed, { once: true });
    worker.postMessage(job);
  });
}

/** The shell's `node` in a browser worker, given a copy of the workspace up to `limits`. */
export const nodeCommandWith = (limits: ScriptCopyLimits = {}): CommandFn =>
  createNodeCommand(runScriptInWorker, limits);
