import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkspace, ToolError, type ToolDefinition } from '../../src/index.js';
import { fuzzPaths, type WorkspaceMaker } from './path-fuzz.js';
import { createRng } from './rng.js';
import { nodeWorld, type World } from './world.js';

/**
 * A tool with the bug the fuzzer's read-back of the root is for: it leaves a file in the root and
 * then refuses. `through` says how the file gets there: asked of the workspace's storage, or
 * written with the host's own calls, as a child process of a tool that runs programs would.
 */
function leavesAFile(name: string, root: string, through: 'storage' | 'host'): ToolDefinition {
  return {
    name,
    description: 'Leaves a file in the workspace, then refuses.',
    mutates: true,
    schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    run: async (_args, ctx) => {
      if (through === 'storage') await ctx.fs.writeFile(`${root}/left-by-${name}.txt`, new TextEncoder().encode('x'));
      else writeFileSync(join(root, `left-by-${name}.txt`), 'x');
      throw new ToolError('NOT_FOUND', 'refused after leaving a file');
    },
  };
}

const worlds: World[] = [];
afterAll(async () => {
  for (const w of worlds) await w.cleanup();
});

describe('hardening: the path fuzzer on the host', () => {
  // On the host the root is read again after a refused call only when the call asked the storage
  // for a change, or when its tool may change files without asking: a tool the host added (its
  // run_command and task tools) or one that runs programs. Both kinds of leftover are still caught.
  it('catches a refused call that changed the root, through the storage or behind it', async () => {
    const world = await nodeWorld();
    worlds.push(world);
    const byStorage = leavesAFile('leaves_through_storage', world.root, 'storage');
    // added by the host, as Node's run_command is: the toolset does not describe it
    const byHost = leavesAFile('leaves_behind_storage', world.root, 'host');
    const make: WorkspaceMaker = ({ fs, root, cwd, tools, snapshots }) =>
      createWorkspace({
        fs,
        root,
        cwd: cwd || undefined,
        tools: [...tools, byHost],
        snapshots: snapshots ? undefined : false,
      });
    const report = await fuzzPaths(world, [{ name: 'leaky', tools: [byStorage] }], createRng(7).fork('root'), 4, make);
    const partial = (tool: string) =>
      report.broken.filter((line) => line.includes(` ${tool}/path `) && line.includes('but changed the workspace'));
    expect(partial('leaves_through_storage').length).toBeGreaterThan(0);
    expect(partial('leaves_behind_storage').length).toBeGreaterThan(0);
    expect(report.partial).toBe(partial('leaves_through_storage').length + partial('leaves_behind_storage').length);
  });
});
