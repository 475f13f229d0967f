import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemoryFs,
  createProvider,
  createWorkspace,
  runAgent,
  toolset,
  type AgentEvent,
  type ApprovalRequest,
} from '../../src/index.js';
import { openToolsetWorkspace } from '../../src/node/index.js';
import { TOOLSET_NAMES } from '../../src/toolsets/index.js';
import { folderWith } from './fixture-folder.js';
import { startModelServer, type ModelServer } from './model-server.js';
import { sentResults } from './requests.js';

const folders: string[] = [];
let toolsDir: string;
let server: ModelServer;
beforeAll(async () => {
  toolsDir = await mkdtemp(join(tmpdir(), 'sandpit-ask-tools-'));
  folders.push(toolsDir);
  await mkdir(join(toolsDir, 'publish'));
  await writeFile(
    join(toolsDir, 'publish', 'publish.json'),
    JSON.stringify({
      description: 'Publish the site.',
      permission: 'ask',
      parameters: { type: 'object', properties: { target: { type: 'string' } }, required: ['target'] },
      command: ['node', '-e', "require('node:fs').writeFileSync('published.txt', 'yes')"],
    }),
  );
  const deleteTurns = [{ calls: [{ name: 'delete_path', args: { path: 'a.txt' } }] }, { text: 'Done.' }];
  server = await startModelServer({ 'approve-yes': deleteTurns, 'approve-no': deleteTurns });
});
afterAll(async () => {
  await server.stop();
  for (const f of folders) await rm(f, { recursive: true, force: true });
});

const files = () => ({ '/a.txt': 'a\n', '/out/x.txt': 'x\n' });
const update = (path: string) =>
  `*** Begin Patch\n*** Update File: ${path}\n@@\n-${path.endsWith('a.txt') ? 'a' : 'x'}\n+changed\n*** End Patch`;

/** A cowork workspace in memory, its two files read whole (the skill's write audit), with no approver. */
async function cowork(policy = {}) {
  const fs = createMemoryFs(files());
  const ws = createWorkspace({ fs, tools: toolset('cowork', { artifactDir: 'out' }).tools, policy });
  for (const path of ['a.txt', 'out/x.txt']) expect((await ws.call('text_file_read', { path })).ok).toBe(true);
  return { ws, fs };
}

async function expectUnchanged(fs: ReturnType<typeof createMemoryFs>) {
  expect(new TextDecoder().decode(await fs.readFile('/a.txt'))).toBe('a\n');
  expect(new TextDecoder().decode(await fs.readFile('/out/x.txt'))).toBe('x\n');
}

function expectRefusedForNoApprover(envelope: any) {
  expect(envelope).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DENIED' } });
  expect(envelope.error.message).toContain('no approver');
  expect(envelope.error.hint).toContain('--approve all');
  expect(envelope.error.hint).toContain('confirm');
}

describe('no approver means refused, never silently allowed', () => {
  const coworkCases: Array<[string, string, unknown]> = [
    ['a delete', 'delete_path', { path: 'a.txt' }],
    ['a delete inside the artifact folder', 'delete_path', { path: 'out/x.txt' }],
    ['a patch outside the artifact folder', 'apply_patch', { patch: update('a.txt') }],
    [
      "a patch's delete inside the artifact folder",
      'apply_patch',
      { patch: '*** Begin Patch\n*** Delete File: out/x.txt\n*** End Patch' },
    ],
    ['a rename outside the artifact folder', 'rename_path', { from: 'a.txt', to: 'b.txt' }],
  ];
  for (const [kind, tool, args] of coworkCases) {
    it(`cowork: ${kind}`, async () => {
      const { ws, fs } = await cowork();
      expectRefusedForNoApprover(await ws.call(tool, args));
      await expectUnchanged(fs);
    });
  }

  it('cowork: a patch inside the artifact folder needs no approval', async () => {
    const { ws, fs } = await cowork();
    expect(await ws.call('apply_patch', { patch: update('out/x.txt') })).toMatchObject({ ok: true });
    expect(new TextDecoder().decode(await fs.readFile('/out/x.txt'))).toBe('changed\n');
  });

  for (const name of TOOLSET_NAMES) {
    it(`${name}: a manifest tool with permission "ask"`, async () => {
      const root = await folderWith({});
      folders.push(root);
      const { ws } = openToolsetWorkspace(root, name, { toolsDir });
      try {
        expectRefusedForNoApprover(await ws.call('publish', { target: 'prod' }));
        await expect(readFile(join(root, 'published.txt'))).rejects.toThrow();
      } finally {
        await ws.close();
      }
    });
  }

  it('canonical: delete_path proceeds without an approver (it can be undone), unless alwaysConfirmDeletes', async () => {
    const open = createWorkspace({ fs: createMemoryFs(files()) });
    expect(await open.call('delete_path', { path: 'a.txt' })).toMatchObject({ ok: true });
    const fs = createMemoryFs(files());
    const strict = createWorkspace({ fs, policy: { alwaysConfirmDeletes: true } });
    expectRefusedForNoApprover(await strict.call('delete_path', { path: 'a.txt' }));
    await strict.call('read_file', { path: 'out/x.txt' });
    expectRefusedForNoApprover(
      await strict.call('apply_patch', { patch: '*** Begin Patch\n*** Delete File: out/x.txt\n*** End Patch' }),
    );
    await expectUnchanged(fs);
  });

  it("an approver sees the tool, the action and the paths, or the call's arguments; its refusal changes nothing", async () => {
    const asked: ApprovalRequest[] = [];
    const { ws, fs } = await cowork({
      confirm: (_p: string[], _a: string, request: ApprovalRequest) => {
        asked.push(request);
        return false;
      },
    });
    expect(await ws.call('apply_patch', { patch: update('a.txt') })).toMatchObject({
      ok: false,
      error: { code: 'CONFIRMATION_DENIED' },
    });
    expect(asked).toEqual([{ action: 'overwrite', paths: ['a.txt'], tool: 'apply_patch' }]);
    await expectUnchanged(fs);
    const root = await folderWith({});
    folders.push(root);
    const requests: ApprovalRequest[] = [];
    const { ws: node } = openToolsetWorkspace(root, 'canonical', {
      toolsDir,
      policy: {
        confirm: (_p, _a, r) => {
          requests.push(r);
          return true;
        },
      },
    });
    try {
      expect(await node.call('publish', { target: 'prod' })).toMatchObject({ ok: true });
      expect(requests).toEqual([{ action: 'run', paths: ['publish'], tool: 'publish', args: { target: 'prod' } }]);
      expect(await readFile(join(root, 'published.txt'), 'utf8')).toBe('yes');
    } finally {
      await node.close();
    }
  });
});

describe('runAgent({ onApproval })', () => {
  for (const answer of [true, false]) {
    it(`${answer ? 'allows' : 'refuses'} the run's deletes through its own approver, and hands the workspace back as it was`, async () => {
      const { ws, fs } = await cowork();
      const events: AgentEvent[] = [];
      const asked: ApprovalRequest[] = [];
      const model = answer ? 'approve-yes' : 'approve-no';
      await runAgent({
        workspace: ws,
        task: 'Remove a.txt.',
        onEvent: (e) => events.push(e),
        provider: createProvider({ api: 'openai', endpoint: `${server.url}/v1`, model }),
        onApproval: (_paths, _action, request) => {
          asked.push(request);
          return answer;
        },
      });
      expect(asked).toEqual([{ action: 'delete', paths: ['a.txt'], tool: 'delete_path' }]);
      expect(events.find((e) => e.type === 'approval')).toEqual({
        type: 'approval',
        request: asked[0],
        approved: answer,
      });
      const [result] = sentResults(server.requestsFor(model)[1]!);
      expect(result!.envelope.ok).toBe(answer);
      if (!answer) expect(result!.envelope.error.code).toBe('CONFIRMATION_DENIED');
      const exists = await fs.readFile('/a.txt').then(
        () => true,
        () => false,
      );
      expect(exists).toBe(!answer);
      // The approver was the run's only: afterwards the workspace has none again.
      expect(ws.policy.confirm).toBeUndefined();
    });
  }
});
