import { ToolError } from '../contract/index.js';
import type { GitContext } from './context.js';
import { configValue } from './repo-files.js';
import { checkAuthor, type GitAuthor } from './work-repo.js';

/** What `setAuthor` takes: the author the workspace's own commits are by from now on. */
export interface SetAuthorOptions {
  /** the name and email `.git/config` takes as `user.name` and `user.email` */
  author: GitAuthor;
}

/** What `setAuthor` wrote: the author `.git/config` now names, and whether the file changed. */
export interface SetAuthorResult {
  /** `user.name` now */
  name: string;
  /** `user.email` now */
  email: string;
  /** false when the config already said so (nothing was written) */
  changed: boolean;
}

const decoder = new TextDecoder();

/**
 * Set `user.name` and `user.email` in the workspace's `.git/config` (the Git tab's author, changed
 * after a clone), keeping every other line as it was: the `[user]` section's lines are replaced
 * in place, or added. Through the one write path with the shell's git capability; a workspace
 * without a `.git` is NOT_FOUND and nothing is written.
 */
export async function setAuthor(
  ctx: Pick<GitContext, 'fs' | 'toAbs' | 'writer'>,
  options: SetAuthorOptions,
): Promise<SetAuthorResult> {
  const author = checkAuthor(options?.author);
  if (!author) throw new ToolError('INVALID_ARGUMENTS', 'author is required: { name, email }');
  const before = await ctx.fs.readFile(ctx.toAbs('.git/config')).then(
    (b) => decoder.decode(b),
    () => null,
  );
  if (before === null)
    throw new ToolError('NOT_FOUND', 'the workspace has no .git to set the author in', {
      hint: 'Clone a repository, or run git init in the shell, first.',
    });
  const after = withUser(before, {
    name: configValue(author.name, 'the author name'),
    email: configValue(author.email, "the author's email"),
  });
  if (after !== before) {
    await ctx.writer.apply([{ kind: 'write', rel: '.git/config', bytes: new TextEncoder().encode(after) }], {
      gitCommand: true,
      noteForSnapshot: false,
    });
  }
  return { ...author, changed: after !== before };
}

/** The config text with `[user]`'s name and email set: each replaced where it is, else added to the section (or a new one). */
function withUser(text: string, values: { name: string; email: string }): string {
  const lines = text.split('\n');
  const left = new Map(Object.entries(values));
  let inUser = false;
  let lastUserLine = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const section = /^\s*\[([^\]"\s]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (section) {
      inUser = section[1]!.toLowerCase() === 'user' && !/"/.test(line);
      if (inUser) lastUserLine = i;
      continue;
    }
    if (!inUser) continue;
    lastUserLine = i;
    const key = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(=|$)/.exec(line)?.[1]?.toLowerCase();
    if (key && left.has(key)) {
      lines[i] = `\t${key} = ${left.get(key)}`;
      left.delete(key);
    }
  }
  const added = [...left].map(([k, v]) => `\t${k} = ${v}`);
  if (added.length === 0) return lines.join('\n');
  if (lastUserLine >= 0) {
    lines.splice(lastUserLine + 1, 0, ...added);
    return lines.join('\n');
  }
  const body = text.endsWith('\n') || text === '' ? text : `${text}\n`;
  return `${body}[user]\n${added.join('\n')}\n`;
}
