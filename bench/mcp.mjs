// `sandpit mcp` against @modelcontextprotocol/server-filesystem: stdio children driven by
// the SDK's client, each on a temp folder of its own. Median latency over 200 calls of reading a 4 KB file,
// the time from spawn to the first tools/list and the first tools/call answered (a client is ready only then),
// of a one-line edit in a 200-line file, and of a bare round trip (ping); the time to answer
// initialize from a cold start (over stdio, and over Streamable HTTP beside it); the same read and edit over Streamable HTTP; and the calls per
// second of 8 HTTP sessions at once.
// Needs `npm run build` first. Run alone with `node bench/mcp.mjs`, or import benchMcp().
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fmtMs, fmtRatio, table } from './measure.mjs';

const CALLS = 200;
const WARMUP = 20;
const IDLE_MS = 5;
const sandpitCli = fileURLToPath(new URL('../dist/node/cli.js', import.meta.url));
const referenceCli = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url),
);

async function connect(args) {
  const client = new Client({ name: 'sandpit-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
  return client;
}

/**
 * Median of each contender, run in turns so a busy machine slows them alike. With `pauseMs`, every
 * call starts after that long idle (as an agent's calls do, with model time between them): caches
 * are cold, and background work a server does while idle cannot land on another's call.
 */
async function interleaved(contenders, pauseMs = 0) {
  const times = contenders.map(() => []);
  for (let i = -WARMUP; i < CALLS; i++) {
    for (const [k, [, fn]] of contenders.entries()) {
      if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      const t = performance.now();
      await fn(i);
      if (i >= 0) times[k].push(performance.now() - t);
    }
  }
  return times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]);
}

async function checked(client, name, args) {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name} failed: ${r.content?.[0]?.text?.slice(0, 300)}`);
  return r;
}

const STARTS = 10;
const SESSIONS = 8;
const SESSION_CALLS = 100;

/** Median time from spawning a server to its initialize answer, the two started in turns. */
async function initializeTimes(dir) {
  const contenders = [
    [sandpitCli, 'mcp', '--root', dir],
    [referenceCli, dir],
  ];
  const times = contenders.map(() => []);
  for (let i = 0; i < STARTS; i++) {
    for (const [k, args] of contenders.entries()) {
      const t = performance.now();
      const client = await connect(args);
      times[k].push(performance.now() - t);
      await client.close();
    }
  }
  return times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]);
}

/**
 * One cold start driven as a client drives it, by raw JSON-RPC lines: initialize, then (on its
 * answer) notifications/initialized and tools/list, then (on that answer) a read, then a write. The times
 * from spawn to each answer. With `probe`, a `server/discover` is sent first instead, as the 2026
 * client's probe is, and only its answer is timed.
 */
function coldStart(args, [call, write], probe = false) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const times = {};
    let buffer = '';
    const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const done = () => {
      child.kill();
      child.once('exit', () => resolve(times));
    };
    child.once('error', reject);
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (let at = buffer.indexOf('\n'); at !== -1; at = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, at));
        buffer = buffer.slice(at + 1);
        const now = performance.now() - t0;
        if (message.id === 'probe') {
          times.discover = now;
          done();
        } else if (message.id === 1) {
          times.initialize = now;
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/list' });
        } else if (message.id === 2) {
          times.list = now;
          send({ id: 3, method: 'tools/call', params: call });
        } else if (message.id === 3) {
          if (message.result?.isError || message.error) reject(new Error(`first call failed: ${buffer.slice(0, 200)}`));
          times.call = now;
          send({ id: 4, method: 'tools/call', params: write });
        } else if (message.id === 4) {
          if (message.result?.isError || message.error)
            reject(new Error(`first write failed: ${buffer.slice(0, 200)}`));
          times.write = now;
          done();
        }
      }
    });
    if (probe)
      send({
        id: 'probe',
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      });
    else
      send({
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
      });
  });
}

/** Medians of {@link coldStart} for sandpit and the reference, started in turns: [sandpit, reference] per step. */
async function readyTimes(folders) {
  const contenders = [
    [
      [sandpitCli, 'mcp', '--root', folders.sandpit],
      [
        { name: 'read_file', arguments: { path: 'read.txt' } },
        { name: 'write_file', arguments: { path: 'cold.txt', content: 'written\n' } },
      ],
    ],
    [
      [referenceCli, folders.reference],
      [
        { name: 'read_text_file', arguments: { path: join(folders.reference, 'read.txt') } },
        { name: 'write_file', arguments: { path: join(folders.reference, 'cold.txt'), content: 'written\n' } },
      ],
    ],
  ];
  const runs = contenders.map(() => []);
  const probes = contenders.map(() => []);
  for (let i = 0; i < STARTS; i++) {
    for (const [k, [args, calls]] of contenders.entries()) {
      runs[k].push(await coldStart(args, calls));
      probes[k].push(await coldStart(args, calls, true));
    }
  }
  const median = (list, key) => list.map((t) => t[key]).sort((a, b) => a - b)[Math.floor(list.length / 2)];
  return {
    list: runs.map((r) => median(r, 'list')),
    call: runs.map((r) => median(r, 'call')),
    write: runs.map((r) => median(r, 'write')),
    discover: probes.map((r) => median(r, 'discover')),
  };
}

/**
 * Median time from spawning `sandpit mcp --http 127.0.0.1:0` to the SDK client's connect over
 * Streamable HTTP (its initialize answer and the 202 of notifications/initialized), the port read
 * from the server's first stderr line.
 */
async function httpInitializeTimes(dir) {
  const times = [];
  for (let i = 0; i < STARTS; i++) {
    const t = performance.now();
    const { child, url } = await startHttp(dir);
    const client = await httpClient(url);
    times.push(performance.now() - t);
    await client.close().catch(() => {});
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

// --http needs a token (or --no-auth); the bench's clients send this one.
const HTTP_TOKEN = randomBytes(24).toString('hex');

/** `sandpit mcp --http 127.0.0.1:0` on `dir`, with a bearer token: its child and endpoint. */
async function startHttp(dir) {
  const child = spawn(
    process.execPath,
    [sandpitCli, 'mcp', '--root', dir, '--http', '127.0.0.1:0', '--auth-token-env', 'SANDPIT_BENCH_TOKEN'],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, SANDPIT_BENCH_TOKEN: HTTP_TOKEN } },
  );
  const url = await new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (c) => {
      err += c;
      const m = /MCP over HTTP at (\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.once('exit', () => reject(new Error(`sandpit mcp --http exited: ${err.slice(0, 300)}`)));
  });
  return { child, url };
}

async function httpClient(url) {
  const client = new Client({ name: 'sandpit-bench-http', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${HTTP_TOKEN}` } },
    }),
  );
  return client;
}

/** 8 sessions each making SESSION_CALLS mixed calls (read, edit of its own file, search) at once. */
async function concurrentSessions(url, dir) {
  const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => httpClient(url)));
  for (const k of sessions.keys()) writeFileSync(join(dir, `s${k}.txt`), 'value = A\n');
  const t = performance.now();
  await Promise.all(
    sessions.map(async (client, k) => {
      for (let i = 0; i < SESSION_CALLS; i++) {
        if (i % 3 === 0) await checked(client, 'read_file', { path: 'read.txt' });
        else if (i % 3 === 1)
          await checked(client, 'edit_file', {
            path: `s${k}.txt`,
            old_text: i % 2 ? 'value = A' : 'value = B',
            new_text: i % 2 ? 'value = B' : 'value = A',
          });
        else await checked(client, 'search_files', { pattern: 'quick brown', max_matches: 5 });
      }
    }),
  );
  const seconds = (performance.now() - t) / 1000;
  for (const c of sessions) await c.close().catch(() => {});
  return (SESSIONS * SESSION_CALLS) / seconds;
}

export async function benchMcp({ log = () => {} } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'sandpit-bench-mcp-'));
  const clients = [];
  try {
    // each server its own folder, as one agent's server has; `shared` holds two servers taking turns
    const line = 'The quick brown fox jumps over the lazy dog, again and again. 0123456789\n';
    const folders = {};
    for (const who of ['sandpit', 'bare', 'reference', 'http', 'shared']) {
      folders[who] = join(dir, who);
      mkdirSync(folders[who]);
      writeFileSync(join(folders[who], 'read.txt'), line.repeat(Math.ceil(4096 / line.length)).slice(0, 4096));
      for (const name of who === 'shared' ? ['one', 'other'] : [who]) {
        writeFileSync(
          join(folders[who], `edit-${name}.txt`),
          Array.from({ length: 200 }, (_, i) => `line ${i + 1}: value = ${i === 99 ? 'A' : i}`).join('\n') + '\n',
        );
      }
    }
    log(`initialize: ${STARTS} cold starts each`);
    const init = await initializeTimes(folders.sandpit);
    log(`first tools/list, first tools/call and server/discover: ${STARTS} cold starts each`);
    const ready = await readyTimes(folders);
    log(`initialize over HTTP: ${STARTS} cold starts`);
    const httpInit = await httpInitializeTimes(folders.http);
    log('starting the servers');
    const sandpit = await connect([sandpitCli, 'mcp', '--root', folders.sandpit]);
    const reference = await connect([referenceCli, folders.reference]);
    const bare = await connect([sandpitCli, 'mcp', '--root', folders.bare, '--snapshots', 'off']);
    const one = await connect([sandpitCli, 'mcp', '--root', folders.shared]);
    const other = await connect([sandpitCli, 'mcp', '--root', folders.shared]);
    clients.push(sandpit, reference, bare, one, other);
    const flip = (i) => (i % 2 === 0 ? ['value = A', 'value = B'] : ['value = B', 'value = A']);
    log(`read: ${CALLS} calls each`);
    const read = await interleaved([
      ['sandpit', () => checked(sandpit, 'read_file', { path: 'read.txt' })],
      ['reference', () => checked(reference, 'read_text_file', { path: join(folders.reference, 'read.txt') })],
    ]);
    log(`edit: ${CALLS} calls each`);
    const edit = await interleaved([
      [
        'sandpit',
        (i) => {
          const [a, b] = flip(i);
          return checked(sandpit, 'edit_file', { path: 'edit-sandpit.txt', old_text: a, new_text: b });
        },
      ],
      [
        'reference',
        (i) => {
          const [a, b] = flip(i);
          return checked(reference, 'edit_file', {
            path: join(folders.reference, 'edit-reference.txt'),
            edits: [{ oldText: a, newText: b }],
          });
        },
      ],
      [
        'bare',
        (i) => {
          const [a, b] = flip(i);
          return checked(bare, 'edit_file', { path: 'edit-bare.txt', old_text: a, new_text: b });
        },
      ],
    ]);
    log(`edit after idle: ${CALLS} calls each`);
    const idleEdit = await interleaved(
      [
        [
          'sandpit',
          (i) => {
            const [a, b] = flip(i);
            return checked(sandpit, 'edit_file', { path: 'edit-sandpit.txt', old_text: a, new_text: b });
          },
        ],
        [
          'reference',
          (i) => {
            const [a, b] = flip(i);
            return checked(reference, 'edit_file', {
              path: join(folders.reference, 'edit-reference.txt'),
              edits: [{ oldText: a, newText: b }],
            });
          },
        ],
      ],
      IDLE_MS,
    );
    log(`two servers on one folder: ${CALLS} edits each, in turns`);
    const turns = await interleaved([
      [
        'one',
        (i) => {
          const [a, b] = flip(i);
          return checked(one, 'edit_file', { path: 'edit-one.txt', old_text: a, new_text: b });
        },
      ],
      [
        'other',
        (i) => {
          const [a, b] = flip(i);
          return checked(other, 'edit_file', { path: 'edit-other.txt', old_text: a, new_text: b });
        },
      ],
      [
        'reference',
        (i) => {
          const [a, b] = flip(i);
          return checked(reference, 'edit_file', {
            path: join(folders.reference, 'edit-reference.txt'),
            edits: [{ oldText: a, newText: b }],
          });
        },
      ],
    ]);
    const ping = await interleaved([
      ['sandpit', () => sandpit.ping()],
      ['reference', () => reference.ping()],
    ]);
    log('over HTTP');
    const { child, url } = await startHttp(folders.http);
    let httpRead, httpEdit, perSecond;
    try {
      const http = await httpClient(url);
      clients.push(http);
      [httpRead] = await interleaved([['http', () => checked(http, 'read_file', { path: 'read.txt' })]]);
      [httpEdit] = await interleaved([
        [
          'http',
          (i) => {
            const [a, b] = flip(i);
            return checked(http, 'edit_file', { path: 'edit-http.txt', old_text: a, new_text: b });
          },
        ],
      ]);
      log(`${SESSIONS} sessions x ${SESSION_CALLS} calls`);
      perSecond = await concurrentSessions(url, folders.http);
    } finally {
      child.kill('SIGTERM');
    }
    const rows = [
      ['read a 4 KB file', read],
      ['one-line edit in a 200-line file', edit],
      ['the same edit, `--snapshots off`', [edit[2], edit[1]]],
      [`the same edit, each call after ${IDLE_MS} ms idle`, idleEdit],
      ["the same edit, two servers on one folder taking turns (each waits for the other's lock)", [turns[0], turns[2]]],
      ['bare round trip (ping)', ping],
      [`initialize from a cold start (median of ${STARTS})`, init],
      [`from spawn to the first tools/list answered (median of ${STARTS})`, ready.list],
      [`from spawn to the first tools/call answered, a 4 KB read (median of ${STARTS})`, ready.call],
      [`from spawn to the first write answered, right after that read (median of ${STARTS})`, ready.write],
      [`from spawn to the answer to server/discover, the 2026 client's probe (median of ${STARTS})`, ready.discover],
    ].map(([what, [s, r]]) => [what, fmtMs(s), fmtMs(r), fmtRatio(r / s)]);
    const httpRows = [
      ['read a 4 KB file', fmtMs(httpRead), fmtMs(read[0])],
      ['one-line edit in a 200-line file', fmtMs(httpEdit), fmtMs(edit[0])],
      [`initialize from a cold start (median of ${STARTS})`, fmtMs(httpInit), fmtMs(init[0])],
      [`${SESSIONS} sessions x ${SESSION_CALLS} mixed calls at once`, `${Math.round(perSecond)} calls/s`, ''],
    ];
    return (
      table(
        `MCP over stdio: sandpit mcp vs @modelcontextprotocol/server-filesystem (median of ${CALLS} calls)`,
        ['operation', 'sandpit mcp', 'server-filesystem', 'sandpit faster by'],
        rows,
      ) +
      '\n\n' +
      table(
        'sandpit mcp over Streamable HTTP beside stdio (median, same calls)',
        ['operation', 'HTTP', 'stdio'],
        httpRows,
      ) +
      '\n\nSandpit runs with its defaults unless noted: every edit is also committed to the shadow git repository (one undo step per call), right after the answer; the next call waits for that commit. Each server has a folder of its own, except the two that take turns.'
    );
  } finally {
    for (const c of clients) await c.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(await benchMcp({ log: (m) => console.error(`# ${m}`) }));
