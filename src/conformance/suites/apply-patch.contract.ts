import { toHex } from '../../fs/hash/hex.js';
import { afterEach, describe, expect, it } from '../api.js';
import { faultInjectionCases } from '../patch-faults.js';
import { applyPatchCases } from '../patch-cases.js';
import type { BackendUnderTest } from '../backend.js';
import { open, type Harness } from '../harness.js';

/**
 * One apply_patch scenario: a seed tree, a patch, and the tree or the error it must give.
 * Sandpit's own run loads 70-odd of them from test/patch/scenarios.
 */
export interface PatchScenario {
  /** the scenario's folder name */
  name: string;
  /** the patch text */
  patch: string;
  /** the tree before the call, by root-relative path */
  input: Record<string, Uint8Array>;
  /** the whole tree after the call, when it must succeed */
  expected?: Record<string, Uint8Array>;
  /** the error code, then substrings the error must contain, when it must fail */
  expectedError?: {
    /** the error code */
    code: string;
    /** substrings its message must contain */
    contains: string[];
  };
  /** a subset the result must match */
  result?: Record<string, unknown>;
  /** how the call is made */
  options: {
    /** call with `dry_run: true` */
    dry_run?: boolean;
    /** the workspace policy */
    policy?: {
      /** the `readBeforeWrite` policy */
      readBeforeWrite?: boolean;
      /** the `staleCheck` policy */
      staleCheck?: boolean;
    };
    /** files read (in full) with read_file before the patch */
    read?: string[];
    /** answer of the confirm policy; absent means no confirm policy */
    confirm?: boolean;
    /** the paths the confirm policy must be asked about, in one call */
    expect_confirm?: string[];
  };
}

type Scenario = PatchScenario;

/** apply_patch: the scenario folders (when given), the inline cases and fault injection, on one backend. */
export function applyPatchContract(backend: BackendUnderTest, scenarios?: readonly PatchScenario[]) {
  describe('apply_patch', () => {
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.cleanup();
      h = undefined;
    });

    if (scenarios) {
      it('has the scenario suite (at least 40 folders)', () => {
        expect(scenarios.length).toBeGreaterThanOrEqual(40);
      });
    }

    for (const scenario of scenarios ?? []) {
      it(`scenario ${scenario.name}`, async () => {
        h = await runScenario(backend, scenario);
      });
    }

    applyPatchCases(backend);
    faultInjectionCases(backend);
  });
}

async function runScenario(backend: BackendUnderTest, s: Scenario): Promise<Harness> {
  const asked: Array<{ paths: string[]; action: string }> = [];
  const confirm =
    s.options.confirm === undefined
      ? undefined
      : (paths: string[], action: string) => {
          asked.push({ paths, action });
          return s.options.confirm!;
        };
  // No snapshots: a scenario judges the envelope and the tree outside .sandpit, which a snapshot
  // never changes (its failure only adds a note to the result), and the shadow repository's first
  // commit of the seed plus the patch's own was most of a scenario's writes on a browser store.
  // apply_patch with snapshots on is in applyPatchCases, and undone step by step in the snapshots group.
  // A patch that names no path above the root or outside it cannot see the escape targets.
  const h = await open(
    backend,
    s.input,
    { snapshots: false, policy: { ...s.options.policy, confirm } },
    { escapeTargets: mayReachOutside(s.patch) },
  );
  for (const path of s.options.read ?? []) await h.ok('read_file', { path });
  const before = await h.tree();
  const env = await h.ws.call('apply_patch', { patch: s.patch, ...(s.options.dry_run ? { dry_run: true } : {}) });
  if (h.root.length > 4) expect(JSON.stringify(env)).not.toContain(h.root);
  if (s.expectedError) {
    if (env.ok) throw new Error(`expected ${s.expectedError.code}, got success: ${JSON.stringify(env.result)}`);
    expect(env.error.code).toBe(s.expectedError.code);
    const body = JSON.stringify(env.error);
    for (const piece of s.expectedError.contains) expect(body).toContain(piece);
    expect(await h.tree()).toEqual(before);
  } else {
    if (!env.ok) throw new Error(`expected success, got ${JSON.stringify(env.error)}`);
    const files = Object.fromEntries(Object.entries(await h.tree()).filter(([, v]) => v !== 'dir'));
    const wanted = Object.fromEntries(Object.entries(s.expected!).map(([k, v]) => [k, toHex(v)]));
    expect(files).toEqual(wanted);
    if (s.result) expect(env.result).toMatchObject(s.result);
    if (!s.options.dry_run) expect((env.result as { change_id: unknown }).change_id).toMatch(/^chg_/);
  }
  if (s.options.expect_confirm) expect(asked).toEqual([{ paths: s.options.expect_confirm, action: 'delete' }]);
  return h;
}

/** Whether a patch names a path that climbs (`..`) or starts at `/`: an escape its scenario tries. */
function mayReachOutside(patch: string): boolean {
  return /^\*\*\* [^\n]*(\.\.|:\s*\/)/m.test(patch);
}
