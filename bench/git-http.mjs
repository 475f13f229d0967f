// A git smart-HTTP server for the git benchmark: `git http-backend` behind node:http on
// 127.0.0.1, read-only (the tests' fuller server with auth is test/git/git-server.ts). It answers
// with CORS headers, preflights included, because the browser rows clone from a page on another
// port, which is another origin. `serveGitProcess` runs it in a process of its own, so a clone in
// the benchmark's own process does not share its event loop with the server, which a `git clone`
// in another process never does. Run alone: `node bench/git-http.mjs <project root>` prints the URL.
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Expose-Headers': 'Content-Type',
  'Access-Control-Max-Age': '600',
};

export async function serveGit(projectRoot) {
  const backend = join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git-http-backend');
  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res
        .writeHead(204, {
          ...CORS,
          'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'Content-Type',
        })
        .end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const child = spawn(backend, [], {
      env: {
        PATH: process.env.PATH ?? '',
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: req.method,
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let started = false;
    child.stdout.on('data', (chunk) => {
      if (started) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      started = true;
      let status = 200;
      const headers = { ...CORS };
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const i = line.indexOf(':');
        if (line.slice(0, i).toLowerCase() === 'status') status = Number.parseInt(line.slice(i + 1), 10);
        else headers[line.slice(0, i)] = line.slice(i + 1).trim();
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    child.on('close', () => {
      if (!started) res.writeHead(500, CORS);
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

/** serveGit in a child process: resolves to { url, pid, close } once it listens. */
export async function serveGitProcess(projectRoot) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), projectRoot], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the git server exited ${code} before it listened`)));
  });
  return {
    url,
    /** the server's process: a benchmark leaves its CPU out of a contender's */
    pid: child.pid,
    close: async () => {
      child.kill();
      await exited;
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await serveGit(process.argv[2]);
  console.log(server.url);
  process.once('SIGTERM', () => server.close().then(() => process.exit(0)));
}
