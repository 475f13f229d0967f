/**
 * Error texts that keep the names they mention as data. A canonical tool writes
 * words`Call ${tool('read_file')} on it first.`; the canonical surface says it as written, and a
 * toolset whose reading tool is `text_file_read` says it with that name, without searching the
 * text for words to replace. Everything else in a text (a path the caller gave, a line of their
 * file) is plain string and no toolset ever rewords it.
 */

/** A tool a text names. */
export interface ToolSlot {
  /** the canonical tool's name (`read_file`) */
  readonly tool: string;
}
/** An argument a text names. */
export interface ArgSlot {
  /** the canonical argument's name (`start_line`) */
  readonly arg: string;
}
/** A JSON pointer to an argument, written in a text (`/operations/0/old_text`). */
export interface PointerSlot {
  /** the pointer, with canonical argument names */
  readonly pointer: string;
}
/** The key of a canonical passage (contract/passages.ts): what a toolset's wording may list. */
export type PassageKey =
  | 'read-in-full'
  | 'too-large'
  | 'list-or-glob'
  | 'bytes-for-binary'
  | 'decode'
  | 'bytes-decode'
  | 'folder-holds'
  | 'retry-check'
  | 'replace-all'
  | 'search-binary'
  | 'search-decode'
  | 'snapshot-data'
  | 'search-args'
  | 'gone-since-read'
  | 'exists-use-edit';

/** A passage a toolset may say wholly its own way (advice about a tool it lacks), known by its key. */
export interface Passage {
  /** what the passage advises, stable across rewordings */
  readonly passage: PassageKey;
  /** the canonical words of it */
  readonly words: Words;
}
/** One part of {@link Words}: plain text, or a name a toolset may say its own way. */
export type WordPart = string | ToolSlot | ArgSlot | PointerSlot | Passage;

/** A text whose names are data: its parts, in order. */
export interface Words {
  /** the text's parts; adjacent strings are joined */
  readonly parts: readonly WordPart[];
}

/** How a toolset says canonical names: any name or passage it does not list is said as written. */
export interface Wording {
  /** canonical tool name → this toolset's */
  readonly tools?: Readonly<Record<string, string>>;
  /** canonical argument name → how this toolset's prose says it */
  readonly args?: Readonly<Record<string, string>>;
  /** canonical argument name → this toolset's argument, in JSON pointers */
  readonly pointers?: Readonly<Record<string, string>>;
  /** passage key → this toolset's own text for it */
  readonly passages?: Readonly<Partial<Record<PassageKey, string>>>;
}

/** True for a {@link Words} value (what the error constructors take besides a plain string). */
export function isWords(value: unknown): value is Words {
  return typeof value === 'object' && value !== null && Array.isArray((value as Words).parts);
}

function isSlot(value: unknown): value is ToolSlot | ArgSlot | PointerSlot | Passage {
  if (typeof value !== 'object' || value === null) return false;
  return 'tool' in value || 'arg' in value || 'pointer' in value || 'passage' in value;
}

/**
 * A text with its names as data: interpolate {@link tool}, {@link arg}, {@link pointer} and
 * {@link passage} slots and other Words; any other value is plain text, never reworded.
 */
export function words(strings: TemplateStringsArray, ...values: unknown[]): Words {
  const parts: WordPart[] = [];
  const push = (part: WordPart) => {
    if (typeof part === 'string') {
      if (part === '') return;
      if (typeof parts.at(-1) === 'string') parts[parts.length - 1] += part;
      else parts.push(part);
    } else parts.push(part);
  };
  strings.forEach((text, i) => {
    push(text);
    if (i >= values.length) return;
    const value = values[i];
    if (isWords(value)) for (const part of value.parts) push(part);
    else if (isSlot(value)) push(value);
    else push(String(value));
  });
  return { parts };
}

/** A tool's name, as a slot of {@link words}. */
export const tool = (name: string): ToolSlot => ({ tool: name });
/** An argument's name, as a slot of {@link words}. */
export const arg = (name: string): ArgSlot => ({ arg: name });
/** A JSON pointer to an argument, as a slot of {@link words}. */
export const pointer = (path: string): PointerSlot => ({ pointer: path });
/** A passage a toolset may replace as a whole: passage('read-in-full')`Call ...`. */
export const passage =
  (key: PassageKey) =>
  (strings: TemplateStringsArray, ...values: unknown[]): Words => ({
    parts: [{ passage: key, words: words(strings, ...values) }],
  });

/** Texts one after another with `separator` between them, as Words. */
export function joinWords(list: readonly Words[], separator: string): Words {
  return { parts: list.flatMap((text, i) => (i === 0 ? text.parts : [separator, ...text.parts])) };
}

/** Rename each argument of a JSON pointer through `names`. */
export function renamePointer(path: string, names: Readonly<Record<string, string>> | undefined): string {
  return names ? path.replace(/[^/]+/g, (segment) => names[segment] ?? segment) : path;
}

/** The text said with `wording`'s names; without one, as the canonical tools say it. */
export function sayWords(text: Words, wording: Wording = {}): string {
  let out = '';
  for (const part of text.parts) {
    if (typeof part === 'string') out += part;
    else if ('tool' in part) out += wording.tools?.[part.tool] ?? part.tool;
    else if ('arg' in part) out += wording.args?.[part.arg] ?? part.arg;
    else if ('pointer' in part) out += renamePointer(part.pointer, wording.args);
    else out += wording.passages?.[part.passage] ?? sayWords(part.words, wording);
  }
  return out;
}
