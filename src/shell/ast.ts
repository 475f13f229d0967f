/** The syntax tree of a shell command line (a small, bash-compatible subset). */

/** One piece of a word; `q` says it was quoted, so it is neither split nor globbed. */
export type WordPart =
  | { t: 'lit'; v: string; q: boolean }
  | { t: 'var'; name: string; op?: string; arg?: Word; q: boolean }
  | { t: 'cmd'; src: string; q: boolean }
  | { t: 'arith'; src: string; q: boolean };

export type Word = WordPart[];

export interface Redirect {
  fd: number;
  op: '>' | '>>' | '<' | '>&' | '<<' | '&>';
  target: Word;
  /** a here-document's text, and whether `$` expands in it (the delimiter was not quoted) */
  heredoc?: { body: string; expand: boolean };
}

export interface SimpleCommand {
  type: 'simple';
  assigns: Array<{ name: string; value: Word }>;
  words: Word[];
  redirects: Redirect[];
}

export interface GroupCommand {
  type: 'group' | 'subshell';
  body: List;
  redirects: Redirect[];
}
export interface IfCommand {
  type: 'if';
  clauses: Array<{ cond: List; body: List }>;
  otherwise?: List;
  redirects: Redirect[];
}
export interface ForCommand {
  type: 'for';
  name: string;
  items: Word[] | null;
  body: List;
  redirects: Redirect[];
}
export interface WhileCommand {
  type: 'while';
  until: boolean;
  cond: List;
  body: List;
  redirects: Redirect[];
}

export type Command = SimpleCommand | GroupCommand | IfCommand | ForCommand | WhileCommand;

export interface Pipeline {
  negate: boolean;
  commands: Command[];
}
export interface AndOr {
  first: Pipeline;
  rest: Array<{ op: '&&' | '||'; pipeline: Pipeline }>;
}
export type List = AndOr[];

/** A command line the parser could not read; the shell reports it as bash does (exit 2). */
export class ShellSyntaxError extends Error {}
