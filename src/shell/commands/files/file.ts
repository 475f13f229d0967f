import { errorText, type CommandFn } from '../../context.js';
import { getopts, resolve } from '../util.js';

/** file's options: the table the flags test reads. */
export const FILE_FLAGS = 'b' as const;

/** What `file` says of some bytes: the common text kinds, empty, or data. */
export function describe(bytes: Uint8Array): string {
  if (bytes.length === 0) return 'empty';
  if (bytes.includes(0)) return 'data';
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'data';
  }
  const kind = /^[\x00-\x7f]*$/.test(text) ? 'ASCII text' : 'Unicode text, UTF-8 text';
  const script = /^#!\s*\S*\/(?:env\s+)?(\w+)/.exec(text);
  const lead = script
    ? `${script[1] === 'bash' ? 'Bourne-Again shell' : script[1] === 'sh' ? 'POSIX shell' : script[1] === 'node' ? 'Node.js' : script[1]} script, ${kind} executable`
    : kind;
  const notes: string[] = [];
  if (
    [...text].some(
      (c) => c.length === 1 && c.charCodeAt(0) > 0 && c.charCodeAt(0) < 32 && !'\n\r\t\f\v\x1b\b'.includes(c),
    )
  )
    notes.push('with escape sequences');
  if (text.split('\n').some((l) => l.length > 300))
    notes.push('with very long lines (' + Math.max(...text.split('\n').map((l) => l.length)) + ')');
  if (text.includes('\r\n')) notes.push('with CRLF line terminators');
  else if (text.includes('\r')) notes.push('with CR line terminators');
  else if (!text.includes('\n')) notes.push('with no line terminators');
  return [lead, ...notes].join(', ');
}

/** file: what kind of file each operand is (text, empty, data, directory), as `file` words it. */
export const file: CommandFn = async (ctx) => {
  const { operands, flags } = getopts(ctx.args, 'b', '', { brief: 'b' });
  const fs = ctx.shell.state.fs;
  // GNU file lines the descriptions up after the longest name.
  const width = Math.max(0, ...operands.map((op) => op.length)) + 2;
  for (const op of operands) {
    const head = flags.has('b') ? '' : `${op}:`.padEnd(width);
    try {
      const st = await fs.stat(resolve(ctx, op));
      if (!st) ctx.out(`${head}cannot open \`${op}' (No such file or directory)\n`);
      else if (st.type === 'dir') ctx.out(`${head}directory\n`);
      else ctx.out(`${head}${describe(await fs.readFile(resolve(ctx, op)))}\n`);
    } catch (error) {
      ctx.out(`${head}cannot open \`${op}' (${errorText(error)})\n`);
    }
  }
  return 0;
};
