import { parse } from 'shell-quote';

// `$` is swapped for a noncharacter before parsing, so shell-quote cannot expand variables.
const DOLLAR = '\uFDD0';

/**
 * Split a command line into words the way a POSIX shell splits them (quotes, backslashes), and do
 * nothing else: there is no shell, so `$HOME`, `*.ts`, `|`, `>` and `&&` stay literal words.
 */
export function splitCommand(command: string): string[] {
  const guarded = !command.includes(DOLLAR);
  const tokens = parse(guarded ? command.replaceAll('$', DOLLAR) : command, (key) => `$${key}`);
  const words: string[] = [];
  for (const token of tokens) {
    if (typeof token === 'string') words.push(token);
    else if ('comment' in token) words.push(...`#${token.comment}`.split(/\s+/).filter(Boolean));
    else if ('pattern' in token && typeof token.pattern === 'string') words.push(token.pattern);
    else if ('op' in token) words.push(String(token.op));
  }
  return guarded ? words.map((w) => w.replaceAll(DOLLAR, '$')) : words;
}
