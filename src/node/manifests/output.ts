import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, resolve } from 'node:path';
import { relativeBelow } from '../process/below.js';
import { ToolError } from '../../contract/index.js';
import type { ProcessOutcome } from '../process/spawn.js';
import type { NotifyNote } from './notify.js';

/** What the model can take in; media it cannot are dropped with a reason. */
export interface ModelCaps {
  /** takes images */
  vision: boolean;
  /** takes audio */
  audio: boolean;
  /** takes PDF documents */
  pdf: boolean;
  /** takes video */
  video: boolean;
}

/** What tools hear without a `caps` option: seed 003's example (an MCP client's model decides for itself); runAgent narrows it to its provider's. */
export const DEFAULT_CAPS: ModelCaps = { vision: true, audio: false, pdf: true, video: false };

// The words a dropped file's reason uses, the same the agent loop gives when it drops an image.
const MEDIA_WORD: Record<keyof ModelCaps, string> = { vision: 'image', audio: 'audio', pdf: 'PDF', video: 'video' };

/** Largest media file attached to a result. */
export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;

const MIME: Record<string, [string, keyof ModelCaps]> = {
  '.png': ['image/png', 'vision'],
  '.jpg': ['image/jpeg', 'vision'],
  '.jpeg': ['image/jpeg', 'vision'],
  '.gif': ['image/gif', 'vision'],
  '.webp': ['image/webp', 'vision'],
  '.svg': ['image/svg+xml', 'vision'],
  '.mp3': ['audio/mpeg', 'audio'],
  '.wav': ['audio/wav', 'audio'],
  '.ogg': ['audio/ogg', 'audio'],
  '.mp4': ['video/mp4', 'video'],
  '.webm': ['video/webm', 'video'],
  '.pdf': ['application/pdf', 'pdf'],
};

export interface CallPlaces {
  outputDir: string;
  workspaceRoot: string;
}

/** Turn a finished manifest tool into its result (seed 003's text and JSON modes). */
export async function toolResult(
  outcome: ProcessOutcome,
  mode: 'text' | 'json',
  places: CallPlaces,
  options: { attach: boolean; caps: ModelCaps; notes: NotifyNote[] },
): Promise<Record<string, unknown>> {
  let output: string;
  let isError: boolean;
  let asked: unknown[] = [];
  const parsed = mode === 'json' ? parseReply(outcome.stdout) : null;
  if (parsed) {
    output = typeof parsed.output === 'string' ? parsed.output : JSON.stringify(parsed.output ?? '');
    isError = parsed.is_error === true || outcome.timed_out;
    asked = Array.isArray(parsed.media) ? parsed.media : [];
  } else if (mode === 'json') {
    // It crashed before printing its reply: show its own words, then how it ended.
    const own = (outcome.stderr || outcome.stdout).trimEnd();
    output = `${own}${own ? '\n' : ''}(${ended(outcome)})`;
    isError = true;
  } else {
    output = outcome.stderr
      ? `${outcome.stdout}${outcome.stdout && !outcome.stdout.endsWith('\n') ? '\n' : ''}${outcome.stderr}`
      : outcome.stdout;
    isError = outcome.exit_code !== 0 || outcome.timed_out;
    if (isError) output = `${output}${output && !output.endsWith('\n') ? '\n' : ''}(${ended(outcome)})`;
  }
  const files = await listFiles(places.outputDir);
  const wanted = new Set<string>();
  const dropped: Array<{ name: string; reason: string }> = [];
  for (const item of asked) {
    const path = typeof item === 'string' ? item : (item as { path?: unknown })?.path;
    if (typeof path !== 'string') continue;
    const name = inside(places.outputDir, path);
    if (name === null)
      dropped.push({
        name: shownName(path, places),
        reason: 'media must be saved in the output folder ($SANDPIT_OUTPUT_DIR)',
      });
    else wanted.add(name);
  }
  if (options.attach) for (const f of files) if (MIME[extname(f.name).toLowerCase()]) wanted.add(f.name);
  const media = [];
  for (const name of [...wanted].sort()) {
    const kind = MIME[extname(name).toLowerCase()];
    const file = files.find((f) => f.name === name);
    if (!file) {
      dropped.push({ name, reason: 'the file does not exist' });
      continue;
    }
    if (!kind) {
      dropped.push({ name, reason: 'not a media type the model can take' });
      continue;
    }
    if (!options.caps[kind[1]]) {
      dropped.push({ name, reason: `the model cannot take ${MEDIA_WORD[kind[1]]} input` });
      continue;
    }
    if (file.size_bytes > MAX_MEDIA_BYTES) {
      dropped.push({ name, reason: `over the ${MAX_MEDIA_BYTES}-byte media limit` });
      continue;
    }
    const data = await readFile(join(places.outputDir, name));
    media.push({ name, mime: kind[0], size_bytes: data.length, data_base64: data.toString('base64') });
  }
  return {
    output,
    is_error: isError,
    exit_code: outcome.exit_code,
    timed_out: outcome.timed_out,
    truncated: outcome.truncated,
    duration_ms: outcome.duration_ms,
    files,
    ...(media.length ? { media } : {}),
    ...(dropped.length ? { media_dropped: dropped } : {}),
    ...(options.notes.length ? { notes: options.notes.map((n) => n.text) } : {}),
  };
}

/**
 * A result that is an error (seed 003: a non-zero exit in text mode, `is_error` in JSON mode, a
 * crash or a timeout) as the error the envelope carries, so `ok` is false on every surface (MCP's
 * isError, the agent loop). The closed list has no "the tool failed" code: a timeout is TIMEOUT,
 * anything else IO_ERROR, the code for an operation outside Sandpit that did not succeed.
 * Every field of the result stays on the error, so the model still reads the tool's own words.
 */
export function failureOf(name: string, result: Record<string, unknown>): ToolError | null {
  if (result.is_error !== true) return null;
  const output = String(result.output ?? '').trimEnd();
  const timedOut = result.timed_out === true;
  return new ToolError(
    timedOut ? 'TIMEOUT' : 'IO_ERROR',
    `${name} ${timedOut ? 'timed out' : 'reported an error'}${output ? `:\n${output}` : ''}`,
    {
      hint: timedOut
        ? 'The tool ran out of time; give it less work, or do the task another way.'
        : 'The tool ran and failed; its output says why. Fix what it names and call it again, or do the task another way.',
      details: result,
    },
  );
}

function parseReply(stdout: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(stdout) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function ended(outcome: ProcessOutcome): string {
  if (outcome.timed_out) return `timed out after ${Math.round(outcome.duration_ms / 1000)} s and was killed`;
  if (outcome.killed) return 'killed';
  return `exit code ${outcome.exit_code}`;
}

/** Files the call wrote to its output folder, by name relative to it. */
async function listFiles(dir: string, prefix = ''): Promise<Array<{ name: string; size_bytes: number }>> {
  const out: Array<{ name: string; size_bytes: number }> = [];
  const entries = await readdir(join(dir, prefix), { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(dir, name)));
    else if (entry.isFile()) out.push({ name, size_bytes: (await stat(join(dir, name))).size });
  }
  return out;
}

function inside(dir: string, path: string): string | null {
  const rel = relativeBelow(dir, isAbsolute(path) ? path : resolve(dir, path));
  return rel === '' ? null : rel;
}

// A path the tool named, shown without host folders: workspace-relative, or just its file name.
function shownName(path: string, places: CallPlaces): string {
  if (!isAbsolute(path)) return path;
  const rel = relativeBelow(places.workspaceRoot, path);
  if (rel) return rel;
  return path.split(/[\\/]/).pop() ?? '';
}
