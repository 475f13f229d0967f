/**
 * How big a hardening run is. `npm test` runs a small slice with a fixed seed; `npm run
 * test:hardening` sets HARDENING=full for the published sizes. HARDENING_SEED replays a run.
 */
export const FULL = process.env.HARDENING === 'full';

const FIXED_SEED = 0x5a4d9157;

function seedFromEnv(): number {
  const raw = process.env.HARDENING_SEED;
  if (raw !== undefined && raw !== '') {
    const n = Number(raw);
    if (!Number.isInteger(n)) throw new Error(`HARDENING_SEED must be an integer, got ${raw}`);
    return n >>> 0;
  }
  return FULL ? (Date.now() ^ (process.pid << 16)) >>> 0 : FIXED_SEED;
}

export const SEED = seedFromEnv();

export const SIZES = FULL
  ? { pathsPerBackend: 10_000, calls: 100_000, kills: 200, clients: 8, callsPerClient: 1_000 }
  : { pathsPerBackend: 150, calls: 2_000, kills: 6, clients: 8, callsPerClient: 40 };

/** Printed by every hardening test so a failure can be replayed. */
export function replayHint(area: string): string {
  return `[hardening ${area}] mode=${FULL ? 'full' : 'slice'} seed=${SEED} (replay: HARDENING_SEED=${SEED}${FULL ? ' HARDENING=full' : ''})`;
}
