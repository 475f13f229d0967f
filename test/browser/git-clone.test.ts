import { afterEach, describe, expect, inject, it } from 'vitest';
import { commands } from 'vitest/browser';
import type { Envelope } from '../../src/index.js';
import type { RemoteWorkspace } from '../../web/client.js';
import type { BackendKind } from '../../web/protocol.js';
import { connect, uniqueName } from './connect.js';

const server = inject('gitServer');
const open: RemoteWorkspace[] = [];
afterEach(async () => {
  for (const ws of open.splice(0)) await ws.close();
});
const seed = {
  'README.md': '# From git\n',
  'src/main.js': 'console.log(1);\n',
  'src/lib/util.js': 'export const u = 1;\n',
};

async function repo(label: string): Promise<string> {
  const name = uniqueName(label);
  await commands.gitCreateRepo(server.root, name, seed);
  return name;
}

async function files(ws: RemoteWorkspace): Promise<Record<string, string>> {
  const listed = (await ws.call('list_directory', { recursive: true, include_hidden: true })) as Envelope<{
    entries: Array<{ path: string; type: string }>;
  }>;
  if (!listed.ok) throw new Error(JSON.stringify(listed));
  const out: Record<string, string> = {};
  for (const e of listed.result.entries.filter((x) => x.type === 'file')) {
    const read = (await ws.call('read_file', { path: e.path })) as Envelope<{ content: string }>;
    if (read.ok) out[e.path] = read.result.content;
  }
  return out;
}

// The browser's stores; git over the memory backend is the same code in Node (test/git), and the
// browser's own part (fetch across origins, the worker) is the same for every store.
describe.each<BackendKind>(['opfs', 'indexeddb'])('git in Chromium, workspace on %s', (backend) => {
  it('keeps an executable file executable through the clone, an edit and the push', async () => {
    const name = uniqueName(`modes-${backend}`);
    await commands.gitCreateRepo(server.root, name, { ...seed, 'bin/run.sh': '#!/bin/sh\necho 1\n' }, ['bin/run.sh']);
    const ws = await connect({ backend, name: uniqueName(`git-modes-${backend}`) });
    open.push(ws);
    expect((await ws.git.clone({ url: `${server.url}/${name}.git` })).ok).toBe(true);
    expect((await ws.call('edit_file', { path: 'bin/run.sh', old_text: '1', new_text: '2' })).ok).toBe(true);
    expect((await ws.git.push({ branch: 'agent/modes', auth: { token: server.token } })).ok).toBe(true);
    expect(await commands.gitModesOnBranch(server.root, name, 'agent/modes')).toEqual([
      '100644 README.md',
      '100644 src/lib/util.js',
      '100644 src/main.js',
      '100755 bin/run.sh',
    ]);
  });

  it('clones across origins with progress, edits through tools, pushes, and git sees exactly those files', async () => {
    const name = await repo(`clone-${backend}`);
    const ws = await connect({ backend, name: uniqueName(`git-${backend}`) });
    open.push(ws);
    const phases: string[] = [];
    const cloned = await ws.git.clone({
      url: `${server.url}/${name}.git`,
      onProgress: (e) => {
        phases.push(e.phase);
      },
    });
    expect(cloned).toMatchObject({ ok: true, result: { ref: 'main', files: 3 } });
    expect(await files(ws)).toEqual(seed);
    // Every progress event reaches the page before the envelope does.
    expect(phases.at(-1)).toBe('Writing files');
    expect((await ws.call('edit_file', { path: 'src/main.js', old_text: '1', new_text: '2' })).ok).toBe(true);
    expect((await ws.call('write_file', { path: 'notes/todo.md', content: '- ship it\n' })).ok).toBe(true);
    let asked = 0;
    const pushed = await ws.git.push({
      branch: `agent/${backend}`,
      auth: async () => {
        asked++;
        return { token: server.token };
      },
    });
    expect(pushed).toMatchObject({ ok: true, result: { branch: `agent/${backend}` } });
    expect(asked).toBeGreaterThan(0);
    expect(await commands.gitFilesOnBranch(server.root, name, `agent/${backend}`)).toEqual(await files(ws));
    expect(await files(ws)).toEqual({ ...seed, 'src/main.js': 'console.log(2);\n', 'notes/todo.md': '- ship it\n' });
  });

  it('refuses a wrong token and a missing repository with clear codes, changing nothing', async () => {
    const name = await repo(`refuse-${backend}`);
    const ws = await connect({ backend, name: uniqueName(`git-refuse-${backend}`) });
    open.push(ws);
    expect(await ws.git.clone({ url: `${server.url}/missing-${name}.git` })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(await files(ws)).toEqual({});
    expect((await ws.git.clone({ url: `${server.url}/${name}.git` })).ok).toBe(true);
    await ws.call('write_file', { path: 'x.txt', content: 'x\n' });
    const refused = await ws.git.push({ branch: 'agent/nope', auth: { token: 'wrong-token-in-browser' } });
    expect(refused).toMatchObject({ ok: false, tool: 'git_push', error: { code: 'PERMISSION_DENIED' } });
    expect(JSON.stringify(refused)).not.toContain('wrong-token-in-browser');
    expect(await commands.gitHasBranch(server.root, name, 'agent/nope')).toBe(false);
  });
});

describe('the Git tab after a clone, across the worker', () => {
  it("sets the author its fields name in .git/config: the console's next git commit is by them", async () => {
    const name = await repo('author-opfs');
    const ws = await connect({ backend: 'opfs', name: uniqueName('git-author-opfs') });
    open.push(ws);
    expect((await ws.git.clone({ url: `${server.url}/${name}.git`, author: { name: 'Pat', email: 'p@x' } })).ok).toBe(
      true,
    );
    expect(await ws.git.setAuthor({ author: { name: 'Sam Other', email: 'sam@example.com' } })).toMatchObject({
      ok: true,
      tool: 'git_config',
      result: { changed: true },
    });
    await ws.call('write_file', { path: 'x.txt', content: 'x\n' });
    const committed = (await ws.call('run_command', {
      command: "git add x.txt && git commit -qm x && git log -1 --format='%an <%ae>'",
    })) as Envelope<{ stdout: string; exit_code: number }>;
    expect(committed).toMatchObject({ ok: true, result: { exit_code: 0, stdout: 'Sam Other <sam@example.com>\n' } });
  });
});
