import { s } from '../../contract/index.js';

/** Result pieces several tools share, declared once like the argument pieces in common.ts. */

/** The change-log entry of a mutating call (its full diff is kept for a reviewer, not returned). */
export const changeIdResult = s.string({ description: 'The change-log entry of this call.' });

/** What a program changed behind the tools' back, found by the rescan after it. */
export const externalChangeResults = {
  changed_files: s.optional(s.array(s.string(), { description: 'Files the program changed (the first 100).' })),
  changed_files_total: s.optional(s.integer({ description: 'How many files changed, when more than are listed.' })),
  change_id: s.optional(changeIdResult),
};

/** A file a snapshot left out. */
export const skippedFileResult = s.object({
  path: s.string(),
  size_bytes: s.integer(),
  reason: s.enum(['too_large', 'unreadable', 'hard_linked', 'special_file', 'excluded']),
  why: s.optional(
    s.string({
      description:
        'For an unreadable path: what the storage said, e.g. ENAMETOOLONG; for a special file: fifo, socket, block_device or char_device.',
    }),
  ),
});

/** What a walk could not enter (a folder too deep, a name too long, no permission), so a short answer is never silent. */
export const unreadableResult = s.optional(
  s.array(s.object({ path: s.string(), reason: s.string() }), {
    description: 'Paths the walk could not enter, with the reason; the answer is then truncated.',
  }),
);

/** One snapshot as list_snapshots and snapshot describe it. */
export const snapshotResultProperties = {
  id: s.string({ description: 'The snapshot id (12 hex digits).' }),
  message: s.string(),
  created_at: s.string({ description: 'ISO 8601 time.' }),
  files_changed: s.integer(),
  tool: s.optional(s.string({ description: 'The tool whose call it records.' })),
  change_id: s.optional(s.string()),
  restored_to: s.optional(s.string({ description: 'For an undo or restore: the snapshot it brought back.' })),
  undo: s.optional(s.literal(true)),
  skipped: s.optional(
    s.array(s.string(), { description: 'Files left out (over the size cap, unreadable, or hard-linked).' }),
  ),
};
export const snapshotResult = s.object(snapshotResultProperties);

/** What undo and restore_snapshot both answer about a restore. */
export const restoreResults = {
  restored_files: s.array(s.string(), { description: 'The files rewritten (the first 200).' }),
  files_changed: s.integer(),
  snapshot: s.string({ description: 'The snapshot recording the restore.' }),
  change_id: changeIdResult,
  packages: s.optional(
    s.string({
      description:
        'What happened to node_modules when a package-lock.json was put back: reinstalled from the lock and the tarball cache, or why not.',
    }),
  ),
};
