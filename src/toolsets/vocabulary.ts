import type { ToolDefinition } from '../tools/schema/define.js';
import { ToolError, type Problem } from '../contract/index.js';
import { toToolError } from '../fs/tool-error.js';

/**
 * How a toolset words what the canonical tools say: whole phrases first (a hint that names a
 * tool this surface lacks is rewritten as a whole), then single names. Argument pointers in
 * `problems` are renamed through `pointers`.
 */
export interface Vocabulary {
  phrases: ReadonlyArray<readonly [string, string]>;
  names: Readonly<Record<string, string>>;
  pointers?: Readonly<Record<string, string>>;
}

/** Text the caller quoted ('a/path', '*** Update File: x') is theirs, never reworded. */
const QUOTED = /('[^'\n]*')/;

/** Say `text` in the toolset's own words. */
export function say(text: string, vocabulary: Vocabulary): string {
  let out = text;
  for (const [from, to] of vocabulary.phrases) out = out.split(from).join(to);
  const names = Object.keys(vocabulary.names);
  if (names.length === 0) return out;
  const word = new RegExp(`\\b(${names.join('|')})\\b`, 'g');
  return out
    .split(QUOTED)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(word, (w) => vocabulary.names[w]!)))
    .join('');
}

/** The same error in the toolset's own words; a non-ToolError is coded first. */
export function reword(error: unknown, vocabulary: Vocabulary): ToolError {
  const e = toToolError(error);
  const problems = e.problems?.map(
    (p): Problem => ({ path: renamePointer(p.path, vocabulary), message: say(p.message, vocabulary) }),
  );
  return new ToolError(e.code, say(e.message, vocabulary), {
    ...(e.hint ? { hint: say(e.hint, vocabulary) } : {}),
    ...(problems ? { problems } : {}),
    ...(e.details ? { details: e.details } : {}),
  });
}

function renamePointer(pointer: string, vocabulary: Vocabulary): string {
  const parts = pointer.split('/');
  return parts.map((part) => vocabulary.pointers?.[part] ?? part).join('/');
}

/** A tool whose failures speak the toolset's vocabulary. */
export function speaking<A, R>(tool: ToolDefinition<A, R>, vocabulary: Vocabulary): ToolDefinition<A, R> {
  return {
    ...tool,
    async run(args, ctx) {
      try {
        return await tool.run(args, ctx);
      } catch (error) {
        throw reword(error, vocabulary);
      }
    },
  };
}

// The canonical hints these rewrite, as they are worded in the workspace and tool layers.
const READ_IN_FULL = 'Call read_file on it without start_line/end_line/max_chars first.';
const TOO_LARGE = 'Read a line window with start_line and end_line, or search it with search_files.';
const LIST_OR_GLOB = 'list_directory or glob';
const BYTES_FOR_BINARY = 'Use file_bytes to inspect it.';
const DECODE =
  'If you know its encoding, name it with the encoding argument (utf-8, utf-16le, utf-16be, latin1); file_bytes shows the raw bytes.';
const BYTES_DECODE = 'read it with read_file and an explicit encoding, or treat it as binary';
const FOLDER_HOLDS = 'Use list_directory to see what it holds.';
const RETRY_CHECK = 'Check the path with read_file or list_directory before retrying';
const AMBIGUOUS = 'or set replace_all: true to change every occurrence';
const SEARCH_BINARY = 'Use file_bytes to look for bytes in it.';
const SEARCH_DECODE = 'Read it with read_file and an explicit encoding.';
const SNAPSHOT_DATA = 'Use the snapshot tools (list_snapshots, diff_snapshots, undo) to look at history.';
const OTHER_SEARCH = '(pattern, path, is_regex, case_sensitive or include changed)';
const GONE_SINCE_READ = 'does not exist, but expected_sha256 was given';

/**
 * What no seed toolset can act on, said alike by all three: none has snapshot tools, and none
 * takes an expected hash (fs_process's edit_file passes the one it just read, so the file went
 * away while it was being edited).
 */
const SEED_COMMON: ReadonlyArray<readonly [string, string]> = [
  [SNAPSHOT_DATA, "No tool here reads that history; work on the project's own files."],
  [GONE_SINCE_READ, 'no longer exists: it was removed after it was read'],
];

/** Seed 001's fs_process: `old`/`new`/`count`, `list_dir`, reads that only speak UTF-8. */
export const FS_PROCESS_WORDS: Vocabulary = {
  phrases: [
    [READ_IN_FULL, 'Call read_file on it without start_line/end_line first (the whole file, up to 2,000 lines).'],
    [AMBIGUOUS, 'or pass count=-1 to change every occurrence (or count=N for the first N)'],
    [LIST_OR_GLOB, 'list_dir'],
    [DECODE, 'read_file reads UTF-8 only; file_bytes shows the raw bytes.'],
    [BYTES_DECODE, 'it cannot be read as UTF-8 text; treat it as binary'],
    [FOLDER_HOLDS, 'Use list_dir to see what it holds.'],
    [SEARCH_DECODE, 'search_files and read_file read UTF-8 only; file_bytes shows the raw bytes.'],
    [OTHER_SEARCH, '(pattern, path, is_regex or include changed)'],
    ...SEED_COMMON,
  ],
  names: {
    old_text: '`old`',
    new_text: '`new`',
    list_directory: 'list_dir',
    timeout_seconds: 'timeout',
    replace_all: 'count=-1',
  },
  pointers: { old_text: 'old', new_text: 'new', timeout_seconds: 'timeout' },
};

/** Seed 004's cowork: text_file_read with offset/limit, apply_patch, glob, grep, rename_path, delete_path. */
export const COWORK_WORDS: Vocabulary = {
  phrases: [
    [READ_IN_FULL, 'Call text_file_read on it with offset=1 and no limit first.'],
    [TOO_LARGE, 'Read a window with offset and limit, or search it with grep.'],
    [LIST_OR_GLOB, 'glob'],
    [BYTES_FOR_BINARY, 'It is not a plain-text file, so the file-system tools cannot open it.'],
    [DECODE, 'If you know its encoding, name it with the encoding argument (utf-8, utf-16le, utf-16be, latin1).'],
    [FOLDER_HOLDS, 'Use glob to see what it holds.'],
    [RETRY_CHECK, 'Check the path with text_file_read or glob before retrying'],
    [
      'Use edit_file to change it, or set overwrite: true to replace it.',
      'Use an Update File section of apply_patch to change it.',
    ],
    [SEARCH_BINARY, 'grep searches plain-text files only; grep its folder instead, where binary files are skipped.'],
    ...SEED_COMMON,
  ],
  names: {
    read_file: 'text_file_read',
    search_files: 'grep',
    list_directory: 'glob',
    move_path: 'rename_path',
    start_line: 'offset',
    end_line: 'limit',
    edit_file: 'apply_patch',
    write_file: 'apply_patch',
  },
  pointers: { start_line: 'offset', end_line: 'limit' },
};

/** Seed 000's file_manager: its seven actions and nothing else. */
export const FILE_MANAGER_WORDS: Vocabulary = {
  phrases: [
    [TOO_LARGE, 'Read a line window with start_line and end_line.'],
    [LIST_OR_GLOB, 'list_directory or exists'],
    [BYTES_FOR_BINARY, 'It is not a text file, so file_manager cannot open it.'],
    [DECODE, 'file_manager reads UTF-8 text only.'],
    ...SEED_COMMON,
  ],
  names: {},
};

/** Anthropic's text editor: view, create, str_replace and insert, with old_str/new_str and view_range. */
export const ANTHROPIC_EDITOR_WORDS: Vocabulary = {
  phrases: [
    [READ_IN_FULL, 'View it whole first (view with no view_range).'],
    [TOO_LARGE, 'View a part of it with view_range, or search it with bash (grep).'],
    [` ${AMBIGUOUS}`, ''],
    [AMBIGUOUS, ''],
    [LIST_OR_GLOB, 'view on its folder'],
    [FOLDER_HOLDS, 'View the folder to see what it holds.'],
    [RETRY_CHECK, 'Check the path with view before retrying'],
    ...SEED_COMMON,
  ],
  names: {
    old_text: 'old_str',
    new_text: 'new_str',
    read_file: 'view',
    edit_file: 'str_replace',
    write_file: 'create',
    list_directory: 'view',
    search_files: 'grep',
    start_line: 'view_range',
    end_line: 'view_range',
  },
  pointers: { old_text: 'old_str', new_text: 'new_str', start_line: 'view_range', end_line: 'view_range' },
};

/** OpenAI's apply_patch and shell: files are read with the shell. */
export const OPENAI_NATIVE_WORDS: Vocabulary = {
  phrases: [
    [READ_IN_FULL, 'Read it whole with the shell (cat) first.'],
    [TOO_LARGE, 'Read a part of it with the shell (sed -n, grep).'],
    [LIST_OR_GLOB, 'the shell (ls)'],
    [FOLDER_HOLDS, 'List it with the shell (ls).'],
    [RETRY_CHECK, 'Check the path with the shell (ls) before retrying'],
    ...SEED_COMMON,
  ],
  names: { read_file: 'cat', list_directory: 'ls', search_files: 'grep' },
};
