import { afterEach, describe, expect, it } from 'vitest';
import { presentBash, presentShell } from '../../src/toolsets/index.js';
import { undoTool } from '../../src/tools/history/undo.js';
import { BACKENDS, type NativeBackend } from './backends.js';

let open: NativeBackend | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

// node: a real bash per line in the OS sandbox, the session replayed through a private folder;
// memory: the built-in shell keeping its state in the page.
describe.each(Object.keys(BACKENDS) as Array<keyof typeof BACKENDS>)('the bash session on %s', (backend) => {
  const top = backend === 'node' ? '/workspace' : '/';
  const bash = async (args: Record<string, unknown>) => presentBash(await open!.ws.call('bash', args));

  it('keeps the folder, variables and functions from one call to the next; restart clears them', async () => {
    open = BACKENDS[backend]('anthropic', { 'sub/a.txt': 'in sub\n' });
    expect(await bash({ command: 'cd sub' })).toEqual({ content: '(no output)' });
    expect((await bash({ command: 'pwd' })).content).toBe(`${top === '/' ? '' : top}/sub\n`);
    expect((await bash({ command: 'cat a.txt' })).content).toBe('in sub\n');
    await bash({ command: 'export GREETING=hello; PLAIN=kept; shout() { echo "$1!"; }' });
    expect((await bash({ command: 'echo "$GREETING $PLAIN"; shout hey' })).content).toBe('hello kept\nhey!\n');
    // exported means exported: a child process sees it (the built-in shell starts no processes)
    if (backend === 'node')
      expect((await bash({ command: 'sh -c \'echo "child sees $GREETING"\'' })).content).toBe('child sees hello\n');
    // The session's state folder shows no host path inside the OS sandbox.
    if (backend === 'node')
      expect((await bash({ command: 'declare -p; declare -f; trap -p' })).content).not.toMatch(
        /sandpit-bash-|\/tmp\/tmp/,
      );
    expect(await bash({ restart: true })).toEqual({ content: 'tool has been restarted.' });
    expect(
      (await bash({ command: 'pwd; echo "[$GREETING][$PLAIN]"; type shout >/dev/null 2>&1 || echo gone' })).content,
    ).toBe(`${top}\n[][]\ngone\n`);
  });

  it('a line that fails or exits keeps the session; a timeout kills only that command', async () => {
    // long enough for a sandboxed bash to start on a busy machine, short enough to wait for once
    const limit = backend === 'node' ? 2 : 0.5;
    open = BACKENDS[backend]('anthropic', { 'sub/a.txt': '' }, { bashTimeoutSeconds: limit });
    await bash({ command: 'cd sub && export KEEP=1' });
    expect((await bash({ command: 'false' })).content).toBe('(exit code 1)');
    expect((await bash({ command: 'exit 3' })).content).toBe('(exit code 3)');
    expect((await bash({ command: 'echo "$KEEP $(basename "$PWD")"' })).content).toBe('1 sub\n');
    const slow = await bash({ command: 'sleep 30' });
    expect(slow.is_error).toBe(true);
    expect(slow.content).toMatch(new RegExp(`timed out after ${limit} seconds.*The session goes on`));
    expect((await bash({ command: 'echo "$KEEP $(basename "$PWD")"' })).content).toBe('1 sub\n');
  });

  it("OpenAI's shell: commands of one call and of the next call share the session", async () => {
    open = BACKENDS[backend]('openai', { 'sub/a.txt': '' });
    const shell = async (commands: string[]) =>
      presentShell(await open!.ws.call('shell', { action: { commands } })).output.map((c) => c.stdout);
    expect(await shell(['cd sub', 'export N=2', 'pwd'])).toEqual(['', '', `${top === '/' ? '' : top}/sub\n`]);
    expect(await shell(['echo "$N"; ls'])).toEqual(['2\na.txt\n']);
  });

  it('writes made in the session are logged as any command; on memory the host undoes them', async () => {
    open = BACKENDS[backend]('anthropic', { 'sub/a.txt': '' }, backend === 'memory' ? { extra: [undoTool] } : {});
    await bash({ command: 'cd sub' });
    const made = await open.ws.call('bash', { command: 'echo new > b.txt' });
    expect(made.ok && (made.result as { change_id?: string }).change_id).toBeTruthy();
    expect(await open.text('sub/b.txt')).toBe('new\n');
    if (backend !== 'memory') return;
    expect((await open.ws.call('undo', {})).ok).toBe(true);
    expect(await open.text('sub/b.txt')).toBeNull();
  });
});
