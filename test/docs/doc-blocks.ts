import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** One fenced code block: its language, the `key=value` words after it, its text and where it is. */
export interface DocBlock {
  file: string;
  line: number;
  lang: string;
  attrs: Record<string, string>;
  text: string;
}

/** Every fenced block of a Markdown text, in order. Info strings read `lang key=value ...`. */
export function codeBlocks(markdown: string, file: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`${file}:${start + 1}: a code block is never closed`);
    const attrs: Record<string, string> = {};
    for (const word of open[2]!.trim().split(/\s+/).filter(Boolean)) {
      const [key, value = ''] = word.split('=');
      attrs[key!] = value;
    }
    blocks.push({ file, line: start + 1, lang: open[1]!, attrs, text: `${body.join('\n')}\n` });
  }
  return blocks;
}

/** The README's blocks and those of every page under docs/ (not docs/incoming, which the lead folds in). */
export function allDocBlocks(): DocBlock[] {
  const files = [
    'README.md',
    ...readdirSync(join(repoRoot, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  return files.flatMap((file) => codeBlocks(readFileSync(join(repoRoot, file), 'utf8'), file));
}

/** The blocks of one file. */
export function blocksOf(file: string): DocBlock[] {
  return codeBlocks(readFileSync(join(repoRoot, file), 'utf8'), file);
}
