import { promises as fsp } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Envelope, Workspace } from '../../workspace-core.js';
import type { Problem } from '../../contract/index.js';
import { UsageError } from './args.js';

const LINE_SHAPE = 'Each line must be one JSON object such as {"tool": "read_file", "args": {"path": "README.md"}}.';

/**
 * Open a transcript: `-` is stdin, anything else a file (or a pipe). Failing to open it is a
 * UsageError, reported before any envelope is printed.
 */
export async function openTranscript(name: string, stdin: Readable): Promise<Readable> {
  if (name === '-') return stdin;
  try {
    const handle = await fsp.open(name, 'r');
    if ((await handle.stat()).isDirectory()) {
      await handle.close();
      throw new UsageError('the transcript must be a file, not a folder');
    }
    return handle.createReadStream({ autoClose: true });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as { code?: string }).code;
    throw new UsageError(
      code === 'ENOENT'
        ? 'the transcript file does not exist'
        : `the transcript file cannot be read (${code ?? 'unknown error'})`,
    );
  }
}

/**
 * Run every transcript line on one workspace, in order, and hand each envelope to `emit`
 * as soon as it exists, so a long replay streams. Blank lines are skipped; a malformed line
 * yields an INVALID_ARGUMENTS envelope and the replay goes on.
 */
export async function replay(
  ws: Workspace,
  input: Readable,
  emit: (envelope: Envelope) => Promise<void>,
): Promise<number> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  let processed = 0;
  for await (const raw of lines) {
    lineNo++;
    const text = (lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw).trim();
    if (text === '') continue;
    const step = parseLine(text, lineNo);
    await emit('envelope' in step ? step.envelope : await ws.call(step.tool, step.args));
    processed++;
  }
  return processed;
}

type Step = { tool: string; args: unknown } | { envelope: Envelope };

function parseLine(text: string, lineNo: number): Step {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return bad('', `line ${lineNo} is not valid JSON (${(error as Error).message})`, [
      { path: '', message: 'must be valid JSON' },
    ]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return bad('', `line ${lineNo} is not a JSON object`, [{ path: '', message: 'must be object' }]);
  }
  const { tool, args } = value as { tool?: unknown; args?: unknown };
  if (tool === undefined) {
    return bad('', `line ${lineNo} has no "tool"`, [{ path: '/tool', message: "must have required property 'tool'" }]);
  }
  if (typeof tool !== 'string') {
    return bad('', `line ${lineNo} has a "tool" that is not a string`, [{ path: '/tool', message: 'must be string' }]);
  }
  return { tool, args: args ?? {} };
}

function bad(tool: string, message: string, problems: Problem[]): Step {
  return { envelope: { ok: false, tool, error: { code: 'INVALID_ARGUMENTS', message, hint: LINE_SHAPE, problems } } };
}
