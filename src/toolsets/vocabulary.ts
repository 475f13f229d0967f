import type { ToolDefinition } from '../tools/schema/define.js';
import { renamePointer, sayWords, ToolError, type Problem, type Wording, type Words } from '../contract/index.js';
import { toToolError } from '../fs/tool-error.js';

/**
 * How a toolset says what the canonical tools say: canonical errors keep the tools, arguments and
 * passages they mention as data (contract/words.ts), and a toolset lists its own name for each
 * and its own text for each passage it cannot say by renaming alone. Texts given as plain strings
 * name nothing a toolset rewords, so they pass as they are.
 */
export type Vocabulary = Wording;

/** The same error in the toolset's own words; a non-ToolError is coded first. */
export function reword(error: unknown, vocabulary: Vocabulary): ToolError {
  const e = toToolError(error);
  const said = (text: string, words: Words | undefined) => (words ? sayWords(words, vocabulary) : text);
  const problems = e.problems?.map(
    (p, i): Problem => ({
      path: renamePointer(p.path, vocabulary.pointers),
      message: said(p.message, e.words?.problems?.[i]),
    }),
  );
  return new ToolError(e.code, said(e.message, e.words?.message), {
    ...(e.hint ? { hint: said(e.hint, e.words?.hint) } : {}),
    ...(problems ? { problems } : {}),
    ...(e.details ? { details: e.details } : {}),
  });
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

/**
 * What no seed toolset can act on, said alike by all: none has snapshot tools, and none takes an
 * expected hash (fs_process's edit_file passes the one it just read, so the file went away while
 * it was being edited).
 */
const SEED_COMMON = {
  'snapshot-data': "No tool here reads that history; work on the project's own files.",
  'gone-since-read': 'no longer exists: it was removed after it was read',
} as const;

/** Seed 001's fs_process: `old`/`new`/`count`, `list_dir`, reads that only speak UTF-8. */
export const FS_PROCESS_WORDS: Vocabulary = {
  tools: { list_directory: 'list_dir' },
  args: { old_text: '`old`', new_text: '`new`', timeout_seconds: 'timeout' },
  pointers: { old_text: 'old', new_text: 'new', timeout_seconds: 'timeout' },
  passages: {
    'read-in-full': 'Call read_file on it without start_line/end_line first (the whole file, up to 2,000 lines).',
    'replace-all': ', or pass count=-1 to change every occurrence (or count=N for the first N)',
    'list-or-glob': 'list_dir',
    decode: 'read_file reads UTF-8 only; file_bytes shows the raw bytes.',
    'bytes-decode': 'it cannot be read as UTF-8 text; treat it as binary',
    'search-decode': 'search_files and read_file read UTF-8 only; file_bytes shows the raw bytes.',
    'search-args': '(pattern, path, is_regex or include changed)',
    ...SEED_COMMON,
  },
};

/** Seed 004's cowork: text_file_read with offset/limit, apply_patch, glob, grep, rename_path, delete_path. */
export const COWORK_WORDS: Vocabulary = {
  tools: {
    read_file: 'text_file_read',
    search_files: 'grep',
    list_directory: 'glob',
    move_path: 'rename_path',
    edit_file: 'apply_patch',
    write_file: 'apply_patch',
  },
  args: { start_line: 'offset', end_line: 'limit' },
  pointers: { start_line: 'offset', end_line: 'limit' },
  passages: {
    'read-in-full': 'Call text_file_read on it with offset=1 and no limit first.',
    'too-large': 'Read a window with offset and limit, or search it with grep.',
    'list-or-glob': 'glob',
    'bytes-for-binary': 'It is not a plain-text file, so the file-system tools cannot open it.',
    decode: 'If you know its encoding, name it with the encoding argument (utf-8, utf-16le, utf-16be, latin1).',
    'exists-use-edit': 'Use an Update File section of apply_patch to change it.',
    'search-binary': 'grep searches plain-text files only; grep its folder instead, where binary files are skipped.',
    ...SEED_COMMON,
  },
};

/** Seed 000's file_manager: its seven actions and nothing else. */
export const FILE_MANAGER_WORDS: Vocabulary = {
  passages: {
    'too-large': 'Read a line window with start_line and end_line.',
    'list-or-glob': 'list_directory or exists',
    'bytes-for-binary': 'It is not a text file, so file_manager cannot open it.',
    decode: 'file_manager reads UTF-8 text only.',
    ...SEED_COMMON,
  },
};

/** Anthropic's text editor: view, create, str_replace and insert, with old_str/new_str and view_range. */
export const ANTHROPIC_EDITOR_WORDS: Vocabulary = {
  tools: {
    read_file: 'view',
    edit_file: 'str_replace',
    write_file: 'create',
    list_directory: 'view',
    search_files: 'grep',
  },
  args: { old_text: 'old_str', new_text: 'new_str', start_line: 'view_range', end_line: 'view_range' },
  pointers: { old_text: 'old_str', new_text: 'new_str', start_line: 'view_range', end_line: 'view_range' },
  passages: {
    'read-in-full': 'View it whole first (view with no view_range).',
    'too-large': 'View a part of it with view_range, or search it with bash (grep).',
    'replace-all': '',
    'list-or-glob': 'view on its folder',
    'folder-holds': 'View the folder to see what it holds.',
    'retry-check': 'Check the path with view before retrying',
    ...SEED_COMMON,
  },
};

/** OpenAI's apply_patch and shell: files are read with the shell. */
export const OPENAI_NATIVE_WORDS: Vocabulary = {
  tools: { read_file: 'cat', list_directory: 'ls', search_files: 'grep' },
  passages: {
    'read-in-full': 'Read it whole with the shell (cat) first.',
    'too-large': 'Read a part of it with the shell (sed -n, grep).',
    'list-or-glob': 'the shell (ls)',
    'folder-holds': 'List it with the shell (ls).',
    'retry-check': 'Check the path with the shell (ls) before retrying',
    ...SEED_COMMON,
  },
};
