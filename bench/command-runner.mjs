// Runs the external contenders of a benchmark (ripgrep, grep) from a small child process, so the
// benchmark's own process never forks between its timed turns. A fork marks every writable page
// of the forking process copy-on-write: whatever that process writes next faults once per page.
// Forked from the benchmark itself, rg's and grep's turns left that cost to the next contender
// (on the search tree, about 6,000 more page faults and 100 ms more CPU in search_files' read
// threads, which write 40 MB of file bytes into memory they wrote before), so the row after them
// read slower than the same search elsewhere in the round. See docs/benchmarks.md.
import { fork, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A command's standard output, counted in non-empty lines (the matches a search command found). */
function countLines(cmd, args) {
  const r = spawnSync(cmd, args, { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
  return r.stdout.split('\n').filter(Boolean).length;
}

/**
 * A child that runs commands one at a time on request: `run(cmd, args)` resolves to the count of
 * non-empty lines the command printed. The round trip to the child is part of the time a caller
 * measures (well under a millisecond against a command's 100 ms or more). `close()` ends it.
 */
export function startCommandRunner() {
  const child = fork(fileURLToPath(import.meta.url), ['--runner'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  let waiting = null;
  child.on('message', (lines) => {
    const w = waiting;
    waiting = null;
    w?.resolve(lines);
  });
  child.on('exit', (code) => waiting?.reject(new Error(`the command runner exited (${code})`)));
  return {
    run: (cmd, args) =>
      new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        child.send({ cmd, args });
      }),
    close: () => {
      child.disconnect();
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--runner') {
  process.on('message', ({ cmd, args }) => process.send(countLines(cmd, args)));
}
