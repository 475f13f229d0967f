// The small process leanSpawnSync (lean-spawn.ts) starts children from: it reads one request at a
// time from the request FIFO, runs it with spawnSync and writes the outcome to the answer FIFO.
// node lean-spawn-driver.mjs REQUEST_FIFO ANSWER_FIFO; it ends when the test process closes its end.
import { spawnSync } from 'node:child_process';
import { openSync, readSync, writeSync } from 'node:fs';

const [requests, answers] = process.argv.slice(2);
// the same order as the test process opens them, so neither open waits for the other forever
const input = openSync(requests, 'r');
const output = openSync(answers, 'w');

function readExactly(length) {
  const buffer = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const read = readSync(input, buffer, got, length - got, null);
    if (read === 0) return null;
    got += read;
  }
  return buffer;
}

for (;;) {
  const head = readExactly(4);
  if (!head) break;
  const body = readExactly(head.readUInt32LE(0));
  if (!body) break;
  const { file, args, options, input: stdin } = JSON.parse(body.toString('utf8'));
  const run = spawnSync(file, args, {
    ...options,
    input: stdin === undefined ? undefined : Buffer.from(stdin, 'base64'),
  });
  const error = run.error ? { message: run.error.message, code: run.error.code } : undefined;
  const meta = Buffer.from(JSON.stringify({ status: run.status, signal: run.signal, pid: run.pid, error }));
  const stdout = run.stdout ?? Buffer.alloc(0);
  const stderr = run.stderr ?? Buffer.alloc(0);
  const lengths = Buffer.alloc(12);
  lengths.writeUInt32LE(meta.length, 0);
  lengths.writeUInt32LE(stdout.length, 4);
  lengths.writeUInt32LE(stderr.length, 8);
  const answer = Buffer.concat([lengths, meta, stdout, stderr]);
  let at = 0;
  while (at < answer.length) at += writeSync(output, answer, at);
}
