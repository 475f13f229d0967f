import type { RunningProcess } from './spawn.js';

/** The fewest milliseconds between two progress reports of one program. */
const EVERY_MS = 200;
/** After this long with nothing printed, a report says the program still runs (a client may reset its timeout on it). */
const QUIET_MS = 5_000;
const MESSAGE_CHARS = 200;
// Colours and cursor moves a program may print even into a pipe.
const ESCAPES = /\x1b\[[0-9;?]*[A-Za-z]/g;

/**
 * A foreground program's output as the call's progress: each line it prints (the last of a burst,
 * at most one report every 200 ms) becomes the message, `done` counting the lines so far, and a
 * quiet spell is reported as still running. So an MCP client that sent a progress token hears a
 * long `npm install` or build while it runs, as it hears the built-in shell's installer. Returns
 * the function that ends the reports (it sends what is still pending) once the program has ended.
 */
export function reportOutputProgress(
  running: RunningProcess,
  report: (done: number, total?: number, message?: string) => void,
): () => void {
  const started = Date.now();
  const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  const partial = { stdout: '', stderr: '' };
  let lines = 0;
  let pending: string | undefined;
  let sentAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const send = () => {
    timer = undefined;
    if (pending === undefined) return;
    sentAt = Date.now();
    report(lines, undefined, pending);
    pending = undefined;
  };
  const quiet = setInterval(() => {
    if (Date.now() - sentAt < QUIET_MS) return;
    sentAt = Date.now();
    report(lines, undefined, `still running after ${Math.round((Date.now() - started) / 1000)} s`);
  }, QUIET_MS);
  running.onOutput((stream, chunk) => {
    const parts = (partial[stream] + decoders[stream].decode(chunk, { stream: true })).split(/\r\n|\n|\r/);
    partial[stream] = parts.pop()!.slice(-4 * MESSAGE_CHARS);
    const complete = parts.map((line) => line.replace(ESCAPES, '').trim()).filter(Boolean);
    if (complete.length === 0) return;
    lines += complete.length;
    pending = complete.at(-1)!.slice(0, MESSAGE_CHARS);
    const wait = sentAt + EVERY_MS - Date.now();
    if (wait <= 0) send();
    else timer ??= setTimeout(send, wait);
  });
  return () => {
    clearInterval(quiet);
    if (timer) clearTimeout(timer);
    for (const stream of ['stdout', 'stderr'] as const) {
      const rest = partial[stream].replace(ESCAPES, '').trim();
      if (rest) {
        lines++;
        pending = rest.slice(0, MESSAGE_CHARS);
      }
    }
    send();
  };
}
