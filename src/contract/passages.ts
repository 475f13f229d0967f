import { arg, passage, tool, type Words } from './words.js';

/**
 * The canonical advice a seed toolset may say wholly its own way, each known by a key: a hint
 * that sends the model to a tool or argument the toolset lacks cannot be fixed by renaming alone
 * (cowork has no "line window", the native toolsets read with the shell). The names inside are
 * slots, so a toolset that only renames says them right without listing the passage.
 */
export const PASSAGES = {
  /** NOT_READ: what to read before a change */
  readInFull: passage(
    'read-in-full',
  )`Call ${tool('read_file')} on it without ${arg('start_line')}/${arg('end_line')}/${arg('max_chars')} first.`,
  /** TOO_LARGE: how to read part of a file */
  tooLarge: passage(
    'too-large',
  )`Read a line window with ${arg('start_line')} and ${arg('end_line')}, or search it with ${tool('search_files')}.`,
  /** the tools that show what a folder holds */
  listOrGlob: passage('list-or-glob')`${tool('list_directory')} or ${tool('glob')}`,
  /** BINARY_FILE on a read */
  bytesForBinary: passage('bytes-for-binary')`Use ${tool('file_bytes')} to inspect it.`,
  /** DECODE_ERROR on a read */
  decode: passage(
    'decode',
  )`If you know its encoding, name it with the ${arg('encoding')} argument (utf-8, utf-16le, utf-16be, latin1); ${tool('file_bytes')} shows the raw bytes.`,
  /** file_bytes on a file that is not UTF-8 */
  bytesDecode: passage(
    'bytes-decode',
  )`read it with ${tool('read_file')} and an explicit encoding, or treat it as binary`,
  /** NOT_A_FILE on a folder */
  folderHolds: passage('folder-holds')`Use ${tool('list_directory')} to see what it holds.`,
  /** an internal error: where to look before retrying */
  retryCheck: passage(
    'retry-check',
  )`Check the path with ${tool('read_file')} or ${tool('list_directory')} before retrying`,
  /** AMBIGUOUS_MATCH: the way to change every occurrence (with its leading comma, so a toolset can drop it whole) */
  replaceAll: passage('replace-all')`, or set ${arg('replace_all')}: true to change every occurrence`,
  /** BINARY_FILE on a search */
  searchBinary: passage('search-binary')`Use ${tool('file_bytes')} to look for bytes in it.`,
  /** DECODE_ERROR on a search */
  searchDecode: passage('search-decode')`Read it with ${tool('read_file')} and an explicit encoding.`,
  /** PERMISSION_DENIED on Sandpit's own snapshot data */
  snapshotData: passage(
    'snapshot-data',
  )`Use the snapshot tools (${tool('list_snapshots')}, ${tool('diff_snapshots')}, ${tool('undo')}) to look at history.`,
  /** a search cursor from another query: the arguments that make a query */
  searchArgs: passage(
    'search-args',
  )`(${arg('pattern')}, ${arg('path')}, ${arg('is_regex')}, ${arg('case_sensitive')} or ${arg('include')} changed)`,
  /** STALE_FILE: an expected hash for a file that is gone */
  goneSinceRead: passage('gone-since-read')`does not exist, but ${arg('expected_sha256')} was given`,
  /** ALREADY_EXISTS on a write that may not overwrite */
  existsUseEdit: passage(
    'exists-use-edit',
  )`Use ${tool('edit_file')} to change it, or set ${arg('overwrite')}: true to replace it.`,
} satisfies Record<string, Words>;
