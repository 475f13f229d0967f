// Taking turns fairly, for benchmarks whose contenders share one machine (bench/git.mjs): an order
// in which no contender always follows the same neighbour, a wait until what the previous
// contender left running in the bench's own processes is done, and a meter of the CPU that other
// processes on the machine took while a contender was timed. Reads Linux's /proc; elsewhere the
// wait returns at once and the meter reports nothing.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // /proc counts CPU in USER_HZ ticks, 100 a second on Linux

/**
 * The order of round `round` for `n` contenders: contender (round + k * step) % n at place k,
 * the step cycling through the numbers below n that share no factor with it. Rotating one order
 * (step 1 only) keeps every contender behind the same neighbour in every round but one; with
 * the steps cycling, a contender's predecessor is another one in each round (for 7 contenders,
 * every other contender once in 6 rounds).
 */
export function turnOrder(n, round) {
  const gcd = (a, b) => (b ? gcd(b, a % b) : a);
  const steps = [];
  for (let s = 1; s < n; s++) if (gcd(s, n) === 1) steps.push(s);
  const step = steps.length ? steps[round % steps.length] : 1;
  return Array.from({ length: n }, (_, k) => (round + k * step) % n);
}

function procStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // utime, stime, and the reaped children's cutime, cstime
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
  } catch {
    return null; // gone, or no /proc
  }
}

/**
 * CPU ticks of this process and of all its descendants (their reaped children included), less
 * the subtrees of `exclude` (pids).
 */
function treeTicks(exclude = []) {
  let pids;
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const children = new Map();
  const stats = new Map();
  for (const pid of pids) {
    const s = procStat(pid);
    if (!s) continue;
    stats.set(Number(pid), s);
    if (!children.has(s.ppid)) children.set(s.ppid, []);
    children.get(s.ppid).push(Number(pid));
  }
  let ticks = 0;
  const stack = [process.pid];
  while (stack.length) {
    const pid = stack.pop();
    if (exclude.includes(pid)) continue;
    ticks += stats.get(pid)?.ticks ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return ticks;
}

/** Busy CPU ticks of the whole machine (all cores), from /proc/stat. */
function machineTicks() {
  try {
    const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
      .split('\n', 1)[0]
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return user + nice + system + irq + softirq + steal;
  } catch {
    return null;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Wait until the bench's own processes (this one, its servers, its browser) have been idle for
 * two windows of `windowMs` in a row, at most `maxMs`: a contender's clone is timed without the
 * previous one's leftovers (a browser deleting a database, a server finishing a pack) running
 * beside it. Resolves to { waitedMs, cpuMs }: how long it waited, and the CPU those processes
 * used meanwhile (the leftovers' size).
 */
export async function settle({ windowMs = 100, idleTicks = 2, maxMs = 5000 } = {}) {
  const start = performance.now();
  const first = treeTicks();
  if (first === null) return { waitedMs: 0, cpuMs: 0 };
  let last = first;
  let quiet = 0;
  while (quiet < 2 && performance.now() - start < maxMs) {
    await sleep(windowMs);
    const now = treeTicks();
    quiet = now - last <= idleTicks ? quiet + 1 : 0;
    last = now;
  }
  return { waitedMs: performance.now() - start, cpuMs: (last - first) * TICK_MS };
}

/**
 * Start a meter; its `stop()` returns { wallMs, cpuMs, othersCores }: the CPU the bench's own
 * processes used meanwhile, less the subtrees of `exclude` (a server every contender shares), in
 * ms, and the CPU that processes outside this benchmark used, in cores (0 on a quiet machine, 2
 * when others took both of two). Both null where /proc cannot be read.
 */
export function meter({ exclude = [] } = {}) {
  const t = performance.now();
  const machine = machineTicks();
  const own = treeTicks();
  const mine = treeTicks(exclude);
  return {
    stop() {
      const wallMs = performance.now() - t;
      const machineNow = machineTicks();
      const ownNow = treeTicks();
      const mineNow = treeTicks(exclude);
      if (machine === null || own === null || machineNow === null || ownNow === null)
        return { wallMs, cpuMs: null, othersCores: null };
      const others = Math.max(0, machineNow - machine - (ownNow - own)) * TICK_MS;
      return { wallMs, cpuMs: (mineNow - mine) * TICK_MS, othersCores: others / wallMs };
    },
  };
}
