/** The syntax tree of a shell command line (a bash-compatible subset). */

/** One piece of a word; `q` says it was quoted, so it is neither split nor globbed. */
export type WordPart =
  | { t: 'lit'; v: string; q: boolean }
  | {
      t: 'var';
      name: string;
      /** `${a[i]}`: the subscript as written (`@` and `*` for every element) */
      index?: string;
      /** `${!name}`: the value names the variable to read (`${!a[@]}`: the keys) */
      indirect?: boolean;
      op?: string;
      arg?: Word;
      /** the replacement of `${v/p/r}`, the length of `${v:o:l}` */
      arg2?: Word;
      q: boolean;
    }
  | { t: 'cmd'; src: string; q: boolean }
  | { t: 'arith'; src: string; q: boolean }
  /** `<(cmd)`: a file name whose contents are the command's output */
  | { t: 'procsub'; src: string; q: boolean };

export type Word = WordPart[];

export interface Redirect {
  fd: number;
  op: '>' | '>>' | '<' | '>&' | '<<' | '&>' | '<<<' | '&>>';
  target: Word;
  /** a here-document's text, and whether `$` expands in it (the delimiter was not quoted) */
  heredoc?: { body: string; expand: boolean };
}

export interface SimpleCommand {
  type: 'simple';
  assigns: Assignment[];
  words: Word[];
  redirects: Redirect[];
}

/** `name=value`, `name+=value`, `name[i]=value`, `name=(a b c)`. */
export interface Assignment {
  name: string;
  index?: string;
  append?: boolean;
  value: Word;
  /** `name=(...)`: the elements of an array */
  list?: Word[];
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
/** `for ((init; cond; step))` */
export interface ArithForCommand {
  type: 'cfor';
  init: string;
  cond: string;
  step: string;
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
/** `(( expr ))`: status 0 when the value is not zero */
export interface ArithCommand {
  type: 'arith';
  src: string;
  redirects: Redirect[];
}
/** `[[ ... ]]`: the words between the brackets, each with its raw text (for `=~` quoting) */
export interface CondCommand {
  type: 'cond';
  words: Word[];
  redirects: Redirect[];
}
export interface CaseCommand {
  type: 'case';
  word: Word;
  items: Array<{ patterns: Word[]; body: List; end: ';;' | ';&' | ';;&' }>;
  redirects: Redirect[];
}
export interface FunctionCommand {
  type: 'func';
  name: string;
  body: Command;
  redirects: Redirect[];
}

export type Command =
  | SimpleCommand
  | GroupCommand
  | IfCommand
  | ForCommand
  | ArithForCommand
  | WhileCommand
  | ArithCommand
  | CondCommand
  | CaseCommand
  | FunctionCommand;

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
