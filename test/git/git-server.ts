import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { leanExecFileSync } from '../support/lean-spawn.js';

/** A real git smart-HTTP server for tests: `git http-backend` behind node:http, on 127.0.0.1. */
export interface GitServer {
  /** e.g. http://127.0.0.1:PORT: a repository `name` is at `${url}/${name}.git` */
  url: string;
  /** the folder of bare repositories (GIT_PROJECT_ROOT) */
  root: string;
  /** the token a push (and, with `authForFetch`, any request) must carry */
  token: string;
  /** every Authorization header value the server received, to prove what a client sent */
  seenAuth: string[];
  close(): Promise<void>;
}

export interface GitServerOptions {
  token?: string;
  /** ask for the token on fetches too, not only on pushes */
  authForFetch?: boolean;
}

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Expose-Headers': 'Content-Type, WWW-Authenticate',
  'Access-Control-Max-Age': '600',
};

/**
 * Start the server. Pushes need `Authorization: Basic` with the token as password (any user), or
 * `Bearer <token>`; a missing or wrong one gets 401, as GitHub does. Every answer carries CORS
 * headers (preflights too, allowing whatever headers were asked for, Authorization included) so
 * pages in Chromium can talk to it.
 */
export async function startGitServer(options: GitServerOptions = {}): Promise<GitServer> {
  const root = mkdtempSync(join(tmpdir(), 'sandpit-git-server-'));
  const token = options.token ?? 'test-token-4f9d1c';
  const backend = join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git-http-backend');
  const seenAuth: string[] = [];

  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...CORS,
        'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type',
      });
      res.end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const pushing =
      url.searchParams.get('service') === 'git-receive-pack' || url.pathname.endsWith('/git-receive-pack');
    if (req.headers.authorization) seenAuth.push(req.headers.authorization);
    if ((pushing || options.authForFetch) && !authorized(req.headers.authorization, token)) {
      req.resume();
      res.writeHead(401, { ...CORS, 'WWW-Authenticate': 'Basic realm="sandpit-test"', 'Content-Type': 'text/plain' });
      res.end('authentication required\n');
      return;
    }
    runBackend(backend, root, req, res, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    root,
    token,
    seenAuth,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(root, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

function authorized(header: string | undefined, token: string): boolean {
  if (!header) return false;
  if (header === `Bearer ${token}`) return true;
  if (!header.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1) === token;
}

/** Run the CGI for one request and relay its answer (CGI headers, then the body). */
function runBackend(backend: string, root: string, req: IncomingMessage, res: ServerResponse, url: URL): void {
  const child = spawn(backend, [], {
    env: {
      PATH: process.env.PATH ?? '',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.receivepack',
      GIT_CONFIG_VALUE_0: 'true',
      REMOTE_USER: 'tester',
      REMOTE_ADDR: '127.0.0.1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
      ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  req.pipe(child.stdin);
  child.stdin.on('error', () => {});
  let head = Buffer.alloc(0);
  let started = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (started) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) return;
    started = true;
    let status = 200;
    const headers: Record<string, string> = { ...CORS };
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const [name, value] = [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    res.writeHead(status, headers);
    res.write(head.subarray(end + 4));
  });
  child.on('close', () => {
    if (!started) {
      res.writeHead(500, CORS);
    }
    res.end();
  });
}

/**
 * Each distinct seed's repository as real git made it once, per server folder: a test file asks for
 * the same seed a dozen times (once per test and backend), and making one took four git processes
 * (init, add, commit, a bare clone). Kept inside the server's folder, so it goes with the server.
 */
const seedRepos = new Map<string, string>();
let seedRepoCount = 0;

/** The CLI helpers below run git synchronously: point them at bare paths, never at this server's URL (its event loop would be blocked). */
/** Make a bare repository `name` on the server holding `files` (the `executable` ones as 100755) in one commit on `branch`. */
export function createRepo(
  server: Pick<GitServer, 'root'>,
  name: string,
  files: Record<string, string>,
  branch = 'main',
  executable: string[] = [],
): string {
  const bare = join(server.root, `${name}.git`);
  const key = JSON.stringify([server.root, files, branch, executable]);
  let seeded = seedRepos.get(key);
  if (seeded === undefined || !existsSync(seeded)) {
    // a name no test asks for: `.seed-` and a number, in the server's folder
    seeded = join(server.root, `.seed-${++seedRepoCount}-${process.pid}.git`);
    makeRepo(seeded, files, branch, executable);
    seedRepos.set(key, seeded);
  }
  // a copy is the same repository, byte for byte: the same commit, refs and objects, its own files
  cpSync(seeded, bare, { recursive: true, force: false, errorOnExist: true });
  return bare;
}

function makeRepo(bare: string, files: Record<string, string>, branch: string, executable: string[]): void {
  const work = mkdtempSync(join(tmpdir(), 'sandpit-git-seed-'));
  try {
    git(work, 'init', '-q', '-b', branch);
    for (const [path, content] of Object.entries(files)) writeNested(join(work, path), content);
    git(work, 'add', '-A');
    for (const path of executable) git(work, 'update-index', '--chmod=+x', path);
    git(work, 'commit', '-q', '-m', 'initial commit');
    leanExecFileSync('git', ['clone', '-q', '--bare', work, bare], { env: gitEnv() });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The files of `branch` as `git clone` sees them: path to content. */
export function filesOnBranch(server: Pick<GitServer, 'root'>, name: string, branch: string): Record<string, string> {
  const work = mkdtempSync(join(tmpdir(), 'sandpit-git-check-'));
  try {
    leanExecFileSync('git', ['clone', '-q', '--branch', branch, join(server.root, `${name}.git`), work], {
      env: gitEnv(),
    });
    const out: Record<string, string> = {};
    const listed = git(work, 'ls-files', '-z').split('\0').filter(Boolean);
    for (const path of listed) out[path] = readFileSync(join(work, path), 'utf8');
    return out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Run git in a folder with a fixed identity and no user config. Started from a small process, not
 * the test worker (test/support/lean-spawn.ts): a git file runs it a hundred times or more.
 */
export function git(cwd: string, ...args: string[]): string {
  return leanExecFileSync('git', args, { cwd, encoding: 'utf8', env: gitEnv() });
}

function gitEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Tester',
    GIT_AUTHOR_EMAIL: 'tester@example.com',
    GIT_COMMITTER_NAME: 'Tester',
    GIT_COMMITTER_EMAIL: 'tester@example.com',
  };
}

function writeNested(path: string, content: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
}

/**
 * The git server of the test file that calls this at its top: started before the file's tests and
 * closed after them. Its fields are read through once it has started (before then, a read throws).
 */
export function gitServerForFile(options: GitServerOptions = {}): GitServer {
  let started: GitServer | undefined;
  beforeAll(async () => {
    started = await startGitServer(options);
  });
  afterAll(() => started?.close());
  return new Proxy({} as GitServer, {
    get(_target, key) {
      if (!started) throw new Error('the git server is read before the file started it (use it in a test or hook)');
      return Reflect.get(started, key);
    },
  });
}
