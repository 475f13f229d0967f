import { afterAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/index.js';
import { mergeTools, nodeTools } from '../../src/node/node-tools.js';
import { recordFigures } from './figures.js';
import { coreMaker, fuzzPaths, type WorkspaceMaker } from './path-fuzz.js';
import { createRng } from './rng.js';
import { SEED, SIZES, replayHint } from './sizes.js';
import { discoverToolsets } from './toolsets.js';
import { memoryWorld, nodeWorld, type World } from './world.js';

const nodeMaker: WorkspaceMaker = ({ fs, root, cwd, tools, snapshots }) => {
  const node = nodeTools();
  // a toolset's own process tool (built with the node run_command) stays; the node tools fill in the rest
  const own = new Set(tools.map((t) => t.name));
  const extra = node.tools.filter(
    (t) => !own.has(t.name) || (t.name === 'run_command' && tools.find((d) => d.name === t.name)?.schema === t.schema),
  );
  const ws = createWorkspace({
    fs,
    root,
    cwd: cwd || undefined,
    tools: mergeTools(tools, extra),
    snapshots: snapshots ? undefined : false,
  });
  node.attach(ws);
  return ws;
};

const backends: Array<{ name: string; world: () => Promise<World>; make: WorkspaceMaker }> = [
  { name: 'memory', world: memoryWorld, make: coreMaker },
  { name: 'node', world: nodeWorld, make: nodeMaker },
];

/** The path fuzzer on one backend; each backend has its own test file so they run in parallel. */
export function pathSuite(only: 'memory' | 'node'): void {
  describe(`hardening: hostile paths (${only})`, () => {
    const worlds: World[] = [];
    afterAll(async () => {
      for (const w of worlds) await w.cleanup();
    });

    for (const backend of backends.filter((b) => b.name === only)) {
      it(`${backend.name}: ${SIZES.pathsPerBackend} generated paths through every path-taking slot of every toolset`, async () => {
        console.log(replayHint(`paths/${backend.name}`));
        const world = await backend.world();
        worlds.push(world);
        const toolsets = await discoverToolsets(
          backend.name === 'node' ? { runCommand: nodeTools().tools.find((t) => t.name === 'run_command') } : {},
        );
        const report = await fuzzPaths(
          world,
          toolsets,
          createRng(SEED).fork(`paths/${backend.name}`),
          SIZES.pathsPerBackend,
          backend.make,
        );
        console.log(
          `[hardening paths/${backend.name}] toolsets=${toolsets.map((t) => t.name).join(',')} slots=${report.uses} paths=${report.paths} calls=${report.calls} escapes=${report.escapes} uncaught=${report.uncaught} partial=${report.partial} known-defect=${report.known} not-supported=${report.unsupported.join(',') || 'none'}`,
        );
        recordFigures({
          area: 'path fuzzing',
          backend: backend.name,
          attempts: report.calls,
          escapes: report.escapes,
          uncaught: report.uncaught,
          partial: report.partial,
          lost: 0,
          torn: 0,
          note: `${report.paths.toLocaleString('en-US')} paths x ${report.uses} path slots, ${toolsets.length} toolsets; ${report.known} answers of a reported fs_process defect (no escape)`,
        });
        expect(report.broken, replayHint(`paths/${backend.name}`)).toEqual([]);
        expect(report.paths).toBe(SIZES.pathsPerBackend);
      });
    }
  });
}
