import { MAX_PATCH_FILES } from '../patch/limits.js';
import { s } from '../contract/index.js';
import { applyPatchResultSchema, applyPatchSchema } from '../tools/apply-patch.js';
import { confirmOrRefuse } from '../tools/confirm.js';
import { defineTool, DESTRUCTIVE, READ_ONLY, type ToolDefinition } from '../tools/schema/define.js';
import { deletePath } from '../tools/delete-path.js';
import { globTool } from '../tools/glob.js';
import { movePath } from '../tools/move-path.js';
import { readFile } from '../tools/read-file.js';
import { searchFilesTool } from '../tools/search-files.js';
import type { ToolRunContext as ToolContext } from '../tools/schema/define.js';
import { lexicalPath } from '../workspace/paths.js';
import { TEXT_ENCODINGS } from '../text/codec.js';
import { defined, runCanonical, withPolicy } from './adapt.js';
import { COWORK_WORDS, speaking } from './vocabulary.js';

type Row = Record<string, any>;

/** Options of the cowork toolset. */
export interface CoworkOptions {
  /**
   * The run's artifact folder, relative to the workspace root: new files and edits inside it need
   * no approval; changes elsewhere go to the workspace's `confirm` policy first. Without it every
   * change goes to `confirm` (when the workspace has one).
   */
  artifactDir?: string;
}

/** The read audit every cowork change runs under: a full read first, and no change since. */
const audited = (ctx: ToolContext) => withPolicy(ctx, { readBeforeWrite: true, staleCheck: true });

const textFileRead = defineTool({
  name: 'text_file_read',
  title: 'Read text file',
  description:
    'Read a plain-text file (up to 10 MiB), strictly decoded: UTF-8 or a BOM need no encoding; others must be named, and ' +
    'undecodable bytes fail rather than being replaced. offset is the first line (1-based), limit the number of lines. ' +
    'Before changing an existing file, read it with offset=1 and no limit: a paged read never grants the write audit. DOCX, PPTX, XLSX, XLS and PDF are refused.',
  mutates: false,
  annotations: READ_ONLY,
  schema: s.object({
    ...s.pick(readFile.schema, ['path']),
    offset: s.optional(s.integer({ minimum: 1, default: 1, description: 'First line to return, 1-based.' })),
    limit: s.optional(s.integer({ minimum: 1, description: 'Lines to return; omit for the whole file.' })),
    ...s.pick(readFile.schema, ['encoding']),
  }),
  resultSchema: s.object({
    path: s.string(),
    content: s.string(),
    encoding: s.enum(TEXT_ENCODINGS),
    bom: s.boolean(),
    eol: s.enum(['lf', 'crlf', 'cr', 'mixed', 'none']),
    total_lines: s.integer(),
    offset: s.integer(),
    lines: s.integer({ description: 'How many lines came back.' }),
    has_more: s.boolean(),
    next_offset: s.nullable(s.integer()),
    sha256: s.string(),
    write_audit: s.boolean({ description: 'This read was whole, so it allows changing the file.' }),
  }),
  async run(args, ctx) {
    const offset = args.offset ?? 1;
    const whole = offset === 1 && args.limit === undefined;
    // A whole read returns every line (the 10 MiB limit still holds), so it can grant the audit.
    const view = whole
      ? withPolicy(ctx, { limits: { ...ctx.policy.limits, maxReadLines: Number.MAX_SAFE_INTEGER } })
      : ctx;
    const r = await runCanonical(
      readFile,
      defined({
        path: args.path,
        encoding: args.encoding,
        start_line: whole ? undefined : offset,
        end_line: args.limit === undefined ? undefined : offset + args.limit - 1,
      }),
      view,
    );
    return {
      path: r.path,
      content: r.content,
      encoding: r.encoding,
      bom: r.bom,
      eol: r.eol,
      total_lines: r.total_lines,
      offset: r.start_line,
      lines: r.total_lines === 0 ? 0 : r.end_line - r.start_line + 1,
      has_more: r.has_more,
      next_offset: r.next_start_line,
      sha256: r.sha256,
      write_audit: whole,
    };
  },
});

/** Paths outside the artifact folder, which need the confirm policy's approval. */
function outside(ctx: ToolContext, artifact: string | null, paths: string[]): string[] {
  if (artifact === null) return paths;
  return paths.filter((p) => {
    const rel = lexicalPath(p.includes('/') ? p : `./${p}`, ctx.cwd);
    return artifact !== '' && rel !== artifact && !rel.startsWith(`${artifact}/`);
  });
}

function patchTool(artifact: string | null) {
  return defineTool({
    name: 'apply_patch',
    title: 'Apply patch',
    description:
      `Create, update, move and delete up to ${MAX_PATCH_FILES} plain-text files with one exact patch, all or nothing. ` +
      'Matching is exact: whitespace and Unicode variants are not normalized, so copy context lines byte for byte and use enough of them to make each hunk unique. ' +
      'Existing files must have been read whole with text_file_read (offset=1, no limit) and be unchanged since. ' +
      "New files and edits inside the run's artifact folder are allowed; changes elsewhere need approval, and deletes are confirmed together. Office and PDF files are refused.",
    mutates: true,
    annotations: DESTRUCTIVE,
    schema: applyPatchSchema,
    resultSchema: applyPatchResultSchema,
    async run(args, ctx) {
      const strict = audited(ctx);
      // Preflight first (it writes nothing), so approval is asked only for a patch that would apply.
      // The patch engine loads with the first patch, as apply_patch's does.
      const { applyPatch } = await import('../patch/apply.js');
      const plan = await applyPatch(strict, args.patch, { dryRun: true, exact: true });
      if (args.dry_run) return plan;
      const files = plan.files as Row[];
      const touched = files
        .filter((f) => f.action !== 'delete')
        .flatMap((f) => [f.path, ...(f.moved_to ? [f.moved_to] : [])]);
      const needApproval = outside(ctx, artifact, touched);
      const deletes = files.filter((f) => f.action === 'delete').map((f) => f.path as string);
      // The skill promises both confirmations, so no approver means refused, never silently applied.
      if (needApproval.length > 0) await confirmOrRefuse(ctx, needApproval, 'overwrite', { required: true });
      if (deletes.length > 0) await confirmOrRefuse(ctx, deletes, 'delete', { required: true });
      // Approved above: the patch must not ask about its deletes a second time.
      return applyPatch(withPolicy(strict, { confirm: () => true }), args.patch, { exact: true });
    },
  });
}

function renameTool(artifact: string | null) {
  return defineTool({
    name: 'rename_path',
    title: 'Rename or move',
    description:
      "Rename or move a file or folder without reading it. Outside the run's artifact folder this needs approval.",
    mutates: true,
    annotations: movePath.annotations,
    schema: movePath.schema,
    resultSchema: movePath.resultSchema,
    async run(args, ctx) {
      // A path the move would refuse anyway is refused before anyone is asked about it.
      const from = await ctx.resolve(args.from, 'entry');
      const to = await ctx.resolve(args.to, 'write');
      // A move that would be refused anyway gets its own error, not a question to the person.
      const refused =
        !from.stat ||
        from.rel === '' ||
        to.rel === '' ||
        from.rel === to.rel ||
        to.rel.startsWith(`${from.rel}/`) ||
        (to.stat !== null && (to.stat.type === 'dir' || from.stat.type === 'dir' || args.overwrite !== true));
      const needApproval = refused ? [] : outside(ctx, artifact, [args.from, args.to]);
      if (needApproval.length > 0) await confirmOrRefuse(ctx, needApproval, 'move', { required: true });
      return runCanonical(movePath, defined(args), ctx);
    },
  });
}

const deleteTool: ToolDefinition = {
  ...deletePath,
  description:
    'Delete a file, or a folder with recursive: true, after the user confirms (CONFIRMATION_DENIED when refused or nobody can be asked).',
  // The skill deletes only "after confirmation": with no approver that is a refusal.
  run: (args, ctx) => deletePath.run(args, withPolicy(ctx, { alwaysConfirmDeletes: true })),
};

const grepTool: ToolDefinition = { ...searchFilesTool, name: 'grep', title: 'Grep' };

/**
 * Seed 004's file-system skill: text_file_read, apply_patch, glob, grep, rename_path and
 * delete_path over the canonical tools, with its read audit and its approval rule; errors and
 * hints name these tools and their arguments.
 */
export function coworkTools(options: CoworkOptions = {}): ToolDefinition[] {
  const artifact =
    options.artifactDir === undefined
      ? null
      : lexicalPath(options.artifactDir.includes('/') ? options.artifactDir : `./${options.artifactDir}`, '');
  const tools: ToolDefinition[] = [
    textFileRead,
    patchTool(artifact),
    globTool,
    grepTool,
    renameTool(artifact),
    deleteTool,
  ];
  return tools.map((tool) => speaking(tool, COWORK_WORDS));
}
