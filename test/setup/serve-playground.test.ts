import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../scripts/serve-playground.mjs', import.meta.url));
const repo = fileURLToPath(new URL('../../', import.meta.url));

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

/** A real server holding a port on 127.0.0.1, as another program would. */
async function hold(port = 0): Promise<number> {
  const server = createServer((_req, res) => res.end('taken'));
  servers.push(server);
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok());
  });
  return (server.address() as AddressInfo).port;
}

/** `npm start`'s server with PORT set, to its exit. */
function start(port: number | string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [script], { cwd: repo, env: { ...process.env, PORT: String(port) } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/**
 * `npm start` with the port after a free one held, as another program would hold it. The free port is
 * only free when it was chosen: a parallel test's connection can take it before the script looks, and
 * then the script rightly names that port instead. Choose again then; the machine's business is not
 * what this checks.
 */
async function startWithSecondTaken(): Promise<{ base: number; r: Awaited<ReturnType<typeof start>> }> {
  for (let attempt = 1; ; attempt++) {
    const second = await hold();
    const base = second - 1;
    const r = await start(base);
    await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
    if (attempt < 10 && r.stderr.includes(`Port ${base} on 127.0.0.1 is already in use`)) continue;
    return { base, r };
  }
}

describe('npm start with a port taken', () => {
  it('names the preview port (the second one) and PORT= in one line, with no stack trace', async () => {
    const { base, r } = await startWithSecondTaken();
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Port ${base + 1} on 127.0.0.1 is already in use`);
    expect(lines[0]).toContain(`PORT=${base + 2} npm start`);
    expect(r.stderr).not.toMatch(/\bat .*\.(m?js|ts):\d+/);
  });

  it('names the playground port when the first one is taken', async () => {
    // The kernel's pick, held from the start: no other program can take it in between.
    const base = await hold();
    const r = await start(base);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringContaining(`Port ${base} on 127.0.0.1 is already in use`),
    ]);
  });

  it('refuses a PORT that is not a port, in one line', async () => {
    const r = await start('abc');
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining('PORT must be a whole number')]);
  });
});
