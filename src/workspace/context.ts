import type { WorkspaceFs } from '../fs/types.js';
import { decodeText, encodeText, isDecodeFailure, type TextEncodingName } from '../text/codec.js';
import type { ChangeLog, ChangedFile, ChangeOrigin, ChangeSummary } from './change-log.js';
import { PASSAGES, ToolError, words } from '../contract/index.js';
import { specialFileRefusal, toToolError } from '../fs/tool-error.js';
import { readFileCounted } from '../fs/helpers.js';
import type { ReadLedger } from './ledger.js';
import { fileSha256, knownSha256 } from './sha-cache.js';
import type { PathLocks } from './locks.js';
import type { FileStep, FileWriter, SnapshotPort } from './file-writer.js';

export type { SnapshotPort };
import { displayPath, lexicalPath, type PathResolver, type ResolveMode, type WorkspacePath } from './paths.js';
import type { Approver, ResolvedPolicy } from './policy.js';
import { documentKind } from '../text/document-types.js';
import { hardLinkRefusal, isRefusedHardLink } from './hard-links.js';
import { YIELD_EVERY_MS, yieldToHost } from './host-yield.js';

/** A text file as the text tools see it. */
export interface TextFile {
  /** where it is */
  path: WorkspacePath;
  /** its bytes */
  bytes: Uint8Array;
  /** its decoded text */
  text: string;
  /** the encoding it was decoded with */
  encoding: TextEncodingName;
  /** it starts with a byte order mark */
  bom: boolean;
  /** the SHA-256 of its bytes */
  sha256: string;
}

/** How `readText` decodes a file. */
export interface ReadTextOptions {
  /** decode with this encoding instead of detecting UTF-8 or a BOM */
  encoding?: TextEncodingName;
  /** read past the size limit (a line window is asked for) */
  allowLarge?: boolean;
}

/** What one call brings besides its arguments: a host's way to stop it, hear its progress and ask its person. */
export interface CallOptions {
  /** aborting stops the call where it can still leave everything as before (an all-or-nothing tool checks before it writes) */
  signal?: AbortSignal;
  /** progress of long work: units done, of `total` when known */
  onProgress?: (done: number, total?: number, message?: string) => void;
  /** the approver for this call only (an MCP session's elicitation), used when the workspace has none of its own */
  confirm?: Approver;
  /** who makes the call (an agent's name, a person): the change log and blame keep it */
  actor?: string;
  /** the caller's id for this call (a model's tool-call id): the change log and blame keep it */
  call_id?: string;
}

/** Everything a tool may use: the workspace's storage, paths, rules and records. */
export class ToolContext<S extends SnapshotPort = SnapshotPort> {
  /** set when the caller may stop the call: see {@link ToolContext.throwIfCancelled} */
  signal?: AbortSignal;
  /** the caller's progress listener, when it has one */
  onProgress?: CallOptions['onProgress'];
  /** who made this call and its id, recorded with its changes */
  origin: ChangeOrigin = {};

  /**
   * @param fs - the workspace's backend
   * @param paths - resolves tool paths inside the root
   * @param cwd - the current folder, relative to the root
   * @param policy - the rules in force
   * @param ledger - what the agent has read
   * @param changes - where changes are recorded for review
   * @param locks - path locks that serialise overlapping writes
   * @param tool - the tool being run
   * @param writer - the one write path
   */
  constructor(
    readonly fs: WorkspaceFs,
    readonly paths: PathResolver,
    readonly cwd: string,
    readonly policy: ResolvedPolicy,
    readonly ledger: ReadLedger,
    readonly changes: ChangeLog,
    private readonly locks: PathLocks,
    readonly tool: string,
    readonly writer: FileWriter,
  ) {}

  /** Refuse to go on once the caller cancelled (TIMEOUT: the call stopped before its end, nothing changed). */
  throwIfCancelled(): void {
    if (this.signal?.aborted) {
      throw new ToolError('TIMEOUT', `${this.tool} was cancelled before it changed anything`, {
        hint: 'Nothing changed; call it again if it is still wanted.',
      });
    }
  }

  /**
   * A point in long work where the caller may get a word in: when someone listens (a signal or a
   * progress listener) and the call has held the thread for a while, let the host's event loop
   * run (the node backend's calls finish without it, so otherwise a cancellation could not arrive
   * and progress could not leave until the end), then stop if the caller cancelled.
   */
  async checkpoint(): Promise<void> {
    if ((this.signal || this.onProgress) && Date.now() - this.yieldedAt >= YIELD_EVERY_MS) {
      await yieldToHost();
      this.yieldedAt = Date.now();
    }
    this.throwIfCancelled();
  }

  private yieldedAt = Date.now();

  /** Tell the caller how far long work has got (nothing when nobody listens). */
  progress(done: number, total?: number, message?: string): void {
    try {
      this.onProgress?.(done, total, message);
    } catch {
      // a listener's failure is not the tool's
    }
  }

  /** Resolve a tool path from the workspace's current folder (OUTSIDE_WORKSPACE when it leaves the root). */
  resolve(path: string, mode: ResolveMode): Promise<WorkspacePath> {
    return this.paths.resolve(path, this.cwd, mode);
  }

  /**
   * Resolve a path while holding its lock, so a change and the checks before it see one state of
   * the file even when calls arrive in parallel.
   */
  withPath<T>(input: string, mode: ResolveMode, work: (path: WorkspacePath, shown: string) => Promise<T>): Promise<T> {
    return this.lock([lexicalPath(input, this.cwd)], async () => {
      const path = await this.resolve(input, mode);
      return work(path, displayPath(path.rel));
    });
  }

  /** Run `work` holding the given root-relative paths, so concurrent calls on them queue. */
  lock<T>(rels: string[], work: () => Promise<T>): Promise<T> {
    return this.locks.run(rels, work);
  }

  /**
   * Resolve a path for reading and read it as text. When no link lies on the way, the backend's
   * readPlainFile does both in one pass (an lstat per folder, then one descriptor for the file);
   * anything else takes the full walk of `resolve` and `readText`, which gives the precise refusal.
   */
  async readTextAt(input: string, options: ReadTextOptions = {}): Promise<TextFile> {
    const rel = lexicalPath(input, this.cwd);
    if (this.fs.readPlainFile && rel !== '' && !documentKind(rel)) {
      const max = options.allowLarge ? Number.POSITIVE_INFINITY : this.policy.limits.maxReadBytes;
      const plain = await this.fs.readPlainFile(this.paths.root, rel, max);
      if (plain) {
        const path: WorkspacePath = { rel, realRel: rel, abs: this.paths.toAbs(rel), stat: plain.stat };
        this.refuseHardLinked(path);
        if (!plain.bytes) throw this.tooLarge(path, plain.stat.size);
        return await this.decodeFile(path, plain.bytes, options.encoding);
      }
    }
    return this.readText(await this.resolve(input, 'read'), options);
  }

  /** Read and strictly decode a text file; every refusal is a coded ToolError. */
  async readText(path: WorkspacePath, options: ReadTextOptions = {}): Promise<TextFile> {
    const shown = displayPath(path.rel);
    const kind = documentKind(path.realRel);
    if (kind) {
      throw new ToolError('UNSUPPORTED_FILE_TYPE', `'${shown}' is a ${kind} document, not plain text`, {
        hint: 'Text tools refuse Office and PDF files; convert it with a document tool first.',
      });
    }
    const stat = await this.existingFile(path);
    if (!options.allowLarge && stat.size > this.policy.limits.maxReadBytes) throw this.tooLarge(path, stat.size);
    return this.decodeFile(path, await this.readChecked(path), options.encoding);
  }

  private tooLarge(path: WorkspacePath, size: number): ToolError {
    return new ToolError(
      'TOO_LARGE',
      `'${displayPath(path.rel)}' is ${size} bytes, over the ${this.policy.limits.maxReadBytes}-byte read limit`,
      {
        hint: PASSAGES.tooLarge,
      },
    );
  }

  private async decodeFile(path: WorkspacePath, bytes: Uint8Array, encoding?: TextEncodingName): Promise<TextFile> {
    const shown = displayPath(path.rel);
    const decoded = decodeText(bytes, encoding);
    if (isDecodeFailure(decoded)) {
      if (decoded.kind === 'binary') {
        throw new ToolError('BINARY_FILE', `'${shown}' looks binary (it has NUL bytes), so text tools refuse it`, {
          hint: PASSAGES.bytesForBinary,
        });
      }
      throw new ToolError(
        'DECODE_ERROR',
        `'${shown}' is not valid ${decoded.encoding} (first bad byte at offset ${decoded.byteOffset})`,
        {
          hint: PASSAGES.decode,
        },
      );
    }
    return {
      path,
      bytes,
      ...decoded,
      sha256: knownSha256(this.fs, path.abs, bytes) ?? (await fileSha256(this.fs, path.abs, bytes)),
    };
  }

  /** lstat of an existing regular file (one the workspace may read), or the coded reason it is not one. */
  async existingFile(path: WorkspacePath) {
    const shown = displayPath(path.rel);
    if (!path.stat)
      throw new ToolError('NOT_FOUND', `'${shown}' does not exist`, {
        hint: words`Check the name with ${PASSAGES.listOrGlob}.`,
      });
    if (path.stat.type === 'dir')
      throw new ToolError('NOT_A_FILE', `'${shown}' is a directory`, {
        hint: PASSAGES.folderHolds,
      });
    if (path.stat.type !== 'file') throw new ToolError('NOT_A_FILE', `'${shown}' is not a regular file`);
    if (path.stat.special) throw specialFileRefusal(`'${shown}'`, path.stat.special);
    this.refuseHardLinked(path);
    return path.stat;
  }

  /**
   * The bytes of a file `existingFile` accepted, its link count checked again on the descriptor
   * they came through: a file swapped for a hard link after the resolve's lstat is still refused.
   */
  async readChecked(path: WorkspacePath): Promise<Uint8Array> {
    const read = await readFileCounted(this.fs, path.abs).catch((e) => {
      throw toToolError(e, displayPath(path.rel));
    });
    if (isRefusedHardLink(read.nlink, this.policy.allowHardLinks))
      throw hardLinkRefusal(displayPath(path.rel), read.nlink!);
    return read.bytes;
  }

  /** A file with several hard links may be the same file as one outside the workspace, so reads refuse it. */
  private refuseHardLinked(path: WorkspacePath): void {
    if (isRefusedHardLink(path.stat?.nlink, this.policy.allowHardLinks))
      throw hardLinkRefusal(displayPath(path.rel), path.stat!.nlink!);
  }

  /** The policy checks before a file is replaced: expected hash, staleness, read-before-write. */
  checkWritable(path: WorkspacePath, currentSha: string | null, expectedSha?: string): void {
    const shown = displayPath(path.rel);
    if (expectedSha !== undefined && expectedSha.toLowerCase() !== currentSha) {
      throw new ToolError(
        'STALE_FILE',
        currentSha === null
          ? words`'${shown}' ${PASSAGES.goneSinceRead}`
          : `'${shown}' has sha256 ${currentSha}, not the expected ${expectedSha}`,
        {
          hint: 'Read the file again and base the change on what it holds now.',
        },
      );
    }
    if (currentSha === null) return;
    const seen = this.ledger.get(path.realRel);
    if (this.policy.staleCheck && seen && seen.sha256 !== currentSha) {
      throw new ToolError('STALE_FILE', `'${shown}' changed since you last read it`, {
        hint: 'Read it again, then repeat the change against its current content.',
      });
    }
    if (this.policy.readBeforeWrite && !seen?.full) {
      throw new ToolError('NOT_READ', `'${shown}' must be read in full before it is changed`, {
        hint: PASSAGES.readInFull,
      });
    }
  }

  /** Encode new text for `path` in the file's encoding and BOM, refusing characters the encoding cannot hold. */
  encode(path: WorkspacePath, text: string, encoding: TextEncodingName, bom: boolean): Uint8Array {
    const bytes = encodeText(text, encoding, bom);
    if (!bytes) {
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `the new content of '${displayPath(path.rel)}' has characters ${encoding} cannot store`,
        {
          hint:
            encoding === 'latin1' ? 'Latin-1 holds only U+0000 to U+00FF.' : 'Remove unpaired surrogate characters.',
        },
      );
    }
    if (bytes.length > this.policy.limits.maxWriteBytes) {
      throw new ToolError(
        'TOO_LARGE',
        `the new content of '${displayPath(path.rel)}' is ${bytes.length} bytes, over the ${this.policy.limits.maxWriteBytes}-byte write limit`,
      );
    }
    return bytes;
  }

  /**
   * Write bytes through the one write path, creating missing parent folders; the agent then
   * knows the file as written (pass `previousSha` for a blind write that only carries forward
   * what it knew). If the write fails the folders it created are removed again, so a failed call
   * leaves the workspace as it was.
   */
  async writeBytes(
    path: WorkspacePath,
    bytes: Uint8Array,
    options: { previousSha?: string | null } = {},
  ): Promise<void> {
    await this.writer.apply([{ kind: 'write', rel: path.realRel, bytes }], { locked: true });
    const sha = await fileSha256(this.fs, path.abs, bytes);
    if (options.previousSha === undefined) {
      this.ledger.recordWrite(path.realRel, sha);
      return;
    }
    // A blind write (an append) grants nothing new: it only carries forward what was already known.
    const seen = this.ledger.get(path.realRel);
    if (seen && seen.sha256 === options.previousSha) {
      if (seen.full) this.ledger.recordWrite(path.realRel, sha);
      else this.ledger.recordRead(path.realRel, sha, false);
    }
  }

  /**
   * Change files through the one write path while this call holds their locks; the change is
   * recorded as this call's when `files` (its text for the log) is given. `prune` removes the
   * folders a removal leaves empty, as a git checkout does.
   */
  async applySteps(
    steps: FileStep[],
    files?: ChangedFile[],
    options: { prune?: boolean } = {},
  ): Promise<ChangeSummary | null> {
    const summary = await this.writer.apply(steps, {
      locked: true,
      ...(options.prune ? { prune: true } : {}),
      ...(files ? { record: { tool: this.tool, files, origin: this.origin } } : {}),
    });
    if (summary) this.recorded.push(summary);
    return summary;
  }

  /** This call's changes, in order; the snapshot taken after the call holds their paths. */
  readonly recorded: ChangeSummary[] = [];
  /** The workspace's snapshot store, when snapshots are on (the snapshot tools use it). */
  snapshots?: S;

  /** Record a change in the log; the summary's id is the call's change_id. */
  recordChange(files: ChangedFile[]): ChangeSummary {
    const summary = this.changes.record(this.tool, files, this.origin);
    this.recorded.push(summary);
    return summary;
  }
}
