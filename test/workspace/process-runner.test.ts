import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type ProcessRunner } from '../../src/index.js';

/** A host runner a playground might plug in: here it "runs" `touch FILE` by writing to the same memory backend. */
function touchRunner(fs: ReturnType<typeof createMemoryFs>, seen: string[]): ProcessRunner {
  return {
    async run(request) {
      seen.push(`${request.cwdDisplay}: ${request.argv.join(' ')}`);
      if (request.argv[0] !== 'touch')
        return {
          exit_code: 127,
          stdout: '',
          stderr: `${request.argv[0]}: not here\n`,
          timed_out: false,
          truncated: false,
          duration_ms: 0,
        };
      await fs.writeFile(`${request.cwd}/${request.argv[1]}`, new TextEncoder().encode('touched\n'));
      return { exit_code: 0, stdout: '', stderr: '', timed_out: false, truncated: false, duration_ms: 1 };
    },
  };
}

describe('run_command in the browser core', () => {
  it('runs the built-in shell when the host gives no runner, and is NOT_SUPPORTED when it turns run_command off', async () => {
    const fs = createMemoryFs({ 'a.txt': 'a' });
    expect(await createWorkspace({ fs }).call('run_command', { command: 'ls' })).toMatchObject({
      ok: true,
      result: { exit_code: 0, stdout: 'a.txt\n' },
    });
    const r = await createWorkspace({ fs, processRunner: false }).call('run_command', { command: 'ls' });
    expect(r).toMatchObject({ ok: false, error: { code: 'NOT_SUPPORTED' } });
  });

  it('runs through a host-supplied runner, confines cwd, and logs what the command changed', async () => {
    const fs = createMemoryFs({ 'src/a.txt': 'a\n' });
    const seen: string[] = [];
    const ws = createWorkspace({ fs, processRunner: touchRunner(fs, seen) });
    const ok = await ws.call('run_command', { command: 'touch "new file.txt"', cwd: 'src' });
    expect(ok).toMatchObject({ ok: true, result: { exit_code: 0 } });
    expect(seen).toEqual(['src: touch new file.txt']);
    expect(new TextDecoder().decode(await fs.readFile('/src/new file.txt'))).toBe('touched\n');
    const changeId = (ok as { result: { change_id?: string } }).result.change_id;
    expect(changeId).toBeDefined();
    expect(ws.changes.get(changeId!)!.files.map((f) => f.path)).toContain('src/new file.txt');
    expect(await ws.call('run_command', { command: 'ls', cwd: '../..' })).toMatchObject({
      ok: false,
      error: { code: 'OUTSIDE_WORKSPACE' },
    });
    expect(await ws.call('run_command', { command: 'nope' })).toMatchObject({ ok: true, result: { exit_code: 127 } });
  });
});
