import type { Redirect } from './ast.js';
import { decodeLossy, encodeUtf8 } from './bytes.js';
import { errorText, type ShellIo, type ShellState } from './context.js';
import { type ExpandHost, expandString } from './expand.js';
import { readWord } from './lex.js';
import { shellPath } from './overlay.js';

/** Apply redirections: the io to use and what to do after the command (write captured output), or a failure status. */
export async function applyRedirects(
  state: ShellState,
  host: ExpandHost,
  redirects: Redirect[],
  io: ShellIo,
): Promise<[ShellIo, () => Promise<void>] | number> {
  if (redirects.length === 0) return [io, async () => {}];
  const fds: Record<number, (t: string) => void> = { 1: io.out, 2: io.err };
  let stdin: string | null = null;
  const files: Array<{ path: string; text: string }> = [];
  for (const r of redirects) {
    if (r.op === '<<') {
      stdin = r.heredoc!.expand ? await expandString(host, heredocWord(r.heredoc!.body)) : r.heredoc!.body;
      continue;
    }
    if (r.op === '<<<') {
      stdin = `${await expandString(host, r.target)}\n`;
      continue;
    }
    const target = await expandString(host, r.target);
    if (r.op === '>&' && /^[0-9]$/.test(target)) {
      fds[r.fd] = fds[Number(target)] ?? (() => {});
      continue;
    }
    if (r.op === '>&' && target === '-') {
      fds[r.fd] = () => {};
      continue;
    }
    const both = r.op === '&>' || r.op === '&>>' || r.op === '>&';
    // The device files scripts use: no /dev exists in a workspace, so they are named here.
    if (target === '/dev/null') {
      if (r.op === '<') stdin = '';
      else if (both) {
        fds[1] = () => {};
        fds[2] = () => {};
      } else fds[r.fd] = () => {};
      continue;
    }
    if (target === '/dev/stdout' || target === '/dev/stderr') {
      if (r.op !== '<') fds[r.fd] = fds[target === '/dev/stdout' ? 1 : 2]!;
      continue;
    }
    const device = state.devices?.get(target);
    if (device) {
      if (r.op === '<') stdin = '';
      else if (both) {
        fds[1] = device;
        fds[2] = device;
      } else fds[r.fd] = device;
      continue;
    }
    const path = shellPath(state.cwd, target);
    try {
      if (r.op === '<') {
        stdin = decodeLossy(await state.fs.readFile(path));
        continue;
      }
      const append = r.op === '>>' || r.op === '&>>';
      if (!append) await state.fs.writeFile(path, new Uint8Array());
      else if (!(await state.fs.stat(path))) await state.fs.writeFile(path, new Uint8Array());
      const sink = { path, text: '' };
      files.push(sink);
      const write = (t: string) => {
        sink.text += t;
      };
      if (both) {
        fds[1] = write;
        fds[2] = write;
      } else fds[r.fd] = write;
    } catch (error) {
      io.err(`sh: ${target}: ${errorText(error)}\n`);
      return 1;
    }
  }
  const finish = async () => {
    for (const f of files) {
      if (!f.text) continue;
      const old = await state.fs.readFile(f.path).catch(() => new Uint8Array());
      const add = encodeUtf8(f.text);
      const joined = new Uint8Array(old.length + add.length);
      joined.set(old);
      joined.set(add, old.length);
      await state.fs.writeFile(f.path, joined);
    }
  };
  const input = stdin === null ? io.input : { text: stdin, pos: 0 };
  return [{ stdin: stdin ?? io.stdin, ...(input ? { input } : {}), out: fds[1]!, err: fds[2]! }, finish];
}

/** A here-document's text as a double-quoted word, so `$x` and `$(...)` expand in it. */
function heredocWord(body: string) {
  return [{ t: 'lit' as const, v: '', q: true }, ...readWord(body, true)];
}
