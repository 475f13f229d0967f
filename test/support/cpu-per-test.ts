import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/**
 * Where a file's CPU goes, test by test: with SANDPIT_TEST_CPU_LOG=<file>, vitest.config.ts loads
 * this in every node-side file, and each test appends the CPU seconds of the process tree's whole
 * cgroup while it ran (`cg`: Chromium's renderers, GPU and network processes included, which no
 * parent's children count reaches), this test process's own (`self`) and its wall seconds. The
 * file's set-up before its first test and between tests (its beforeAll hooks) is a line of its own,
 * `(before) <file>`. Run one file at a time (`--no-file-parallelism`) in a cgroup of its own, as
 * a wrapper such as `cgexec` gives: the cgroup counts every process in it, a parallel file's too.
 */
const log = process.env.SANDPIT_TEST_CPU_LOG!;

/** This process's cpuacct cgroup usage file (cgroup v1), or null where there is none. */
const usageFile = (() => {
  const line = readFileSync('/proc/self/cgroup', 'utf8')
    .split('\n')
    .find((entry) => /:(?:[^:]*,)?cpuacct(?:,[^:]*)?:/.test(entry));
  return line ? `/sys/fs/cgroup/cpuacct${line.split(':')[2]}/cpuacct.usage` : null;
})();

const groupSeconds = () => (usageFile ? Number(readFileSync(usageFile, 'utf8')) / 1e9 : Number.NaN);
const selfSeconds = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e6;
};

let mark = { group: 0, self: 0, wall: 0 };
const start = () => {
  mark = { group: groupSeconds(), self: selfSeconds(), wall: performance.now() };
};
const end = (name: string) => {
  const row = {
    name,
    cg: +(groupSeconds() - mark.group).toFixed(2),
    self: +(selfSeconds() - mark.self).toFixed(2),
    wall: +((performance.now() - mark.wall) / 1000).toFixed(2),
  };
  appendFileSync(log, `${JSON.stringify(row)}\n`);
};

beforeAll(start);
beforeEach(({ task }) => {
  end(`(before) ${task.file?.name}`);
  start();
});
afterEach(({ task }) => {
  end(task.name);
  start();
});
afterAll(() => end('(afterAll)'));
