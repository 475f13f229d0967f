import { afterEach, describe, expect, it } from './api.js';
import type { BackendUnderTest } from './backend.js';
import { enc, open, type Harness } from './harness.js';
import { faultyFs, type FaultPlan } from './faulty-fs.js';

/** Ten files of every kind the patch below touches: updates (one CRLF, one BOM), deletes, a move. */
export const FAULT_SEED: Record<string, string | Uint8Array> = {
  'src/a.ts': 'export const a = 1;\nexport const keep = true;\n',
  'src/b.ts': 'line 1\r\nline 2\r\nline 3\r\n',
  'src/c.ts': new Uint8Array([0xef, 0xbb, 0xbf, ...enc('bom first\nbom second\n')]),
  'src/d.ts': 'd1\nd2\nd3',
  'src/e.ts': 'e\n',
  'old/f.ts': 'to be removed\n',
  'old/g.ts': 'also removed\n',
  'lib/h.ts': 'h moves\n',
  'docs/i.md': '# Title\n\ntext\n',
  'docs/j.md': 'j\n',
};

/** Touches all ten seed files and adds two (one in new nested folders): twelve files written or removed. */
export const FAULT_PATCH = `*** Begin Patch
*** Update File: src/a.ts
@@
-export const a = 1;
+export const a = 2;
 export const keep = true;
*** Update File: src/b.ts
 line 1
-line 2
+line two
 line 3
*** Update File: src/c.ts
-bom second
+bom 2nd
*** Update File: src/d.ts
 d2
-d3
+d3!
*** End of File
*** Update File: src/e.ts
+e2
*** End of File
*** Delete File: old/f.ts
*** Delete File: old/g.ts
*** Update File: lib/h.ts
*** Move to: moved/deep/h.ts
@@
-h moves
+h moved
*** Update File: docs/i.md
@@ # Title
+
+added
*** Update File: docs/j.md
-j
+J
*** Add File: new/nested/k.ts
+export {};
*** Add File: src/l.ts
+l
*** End Patch
`;

function faultyBackend(backend: BackendUnderTest): BackendUnderTest {
  return {
    ...backend,
    name: `${backend.name} (faulty)`,
    async make(seed, needs) {
      const made = await backend.make(seed, needs);
      return { ...made, fs: faultyFs(made.fs) };
    },
  };
}

/** Snapshots write too; here only the patch's own writes are counted and failed. */
const NO_SNAPSHOTS = { snapshots: false } as const;

type Faulty = Harness['fs'] & { counted: number; plan: FaultPlan };

/** For every k, failing the k-th storage mutation leaves the workspace byte-identical. */
export function faultInjectionCases(backend: BackendUnderTest) {
  describe('apply_patch under storage faults', () => {
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.cleanup();
      h = undefined;
    });

    it('a clean run applies the 12-file patch', async () => {
      h = await open(faultyBackend(backend), FAULT_SEED, NO_SNAPSHOTS);
      const r = await h.ok('apply_patch', { patch: FAULT_PATCH });
      expect(r.files).toHaveLength(12);
      expect((h.fs as Faulty).counted).toBeGreaterThanOrEqual(12);
      expect(await h.text('src/b.ts')).toBe('line 1\r\nline two\r\nline 3\r\n');
      expect(await h.text('src/d.ts')).toBe('d1\nd2\nd3!');
      expect(await h.text('moved/deep/h.ts')).toBe('h moved\n');
      expect(await h.bytes('old/f.ts')).toBeNull();
    });

    it('rolls back for every failing k, byte for byte', async () => {
      h = await open(faultyBackend(backend), FAULT_SEED, NO_SNAPSHOTS);
      await h.ok('apply_patch', { patch: FAULT_PATCH });
      const total = (h.fs as Faulty).counted;
      await h.cleanup();
      h = undefined;
      const failures: FaultPlan['failure'][] = ['EIO', 'ENOSPC', 'QuotaExceededError'];
      for (let k = 1; k <= total; k++) {
        // a fresh workspace per k, judged by its root alone: no escape targets beside it
        h = await open(faultyBackend(backend), FAULT_SEED, NO_SNAPSHOTS, { escapeTargets: false });
        const before = await h.tree();
        const failure = failures[k % failures.length];
        (h.fs as Faulty).plan = { failAt: k, failure };
        const err = await h.fail('apply_patch', { patch: FAULT_PATCH });
        expect(err.code, `k=${k}`).toBe(failure === 'EIO' ? 'IO_ERROR' : 'QUOTA_EXCEEDED');
        expect(err.message).toContain('rolled back');
        expect(await h.tree(), `k=${k} (${failure})`).toEqual(before);
        if (h.root.length > 4) expect(JSON.stringify(err)).not.toContain(h.root);
        await h.cleanup();
        h = undefined;
      }
    });
  });
}
