import type { ToolConsole } from '../console/panel.js';
import { toast } from '../page/dom.js';
import { failureText } from '../page/failure-words.js';
import type { Session } from '../page/session.js';
import type { Editor } from './editor.js';
import type { FileTree } from './tree.js';

/** The file tree's Delete and Rename, through the same tools an agent calls. */
export function treeActions(session: Session, editor: Editor, tree: FileTree, toolConsole: ToolConsole) {
  /** Whether `path` (or a folder holding it) is the file open in the editor. */
  const holdsOpenFile = (path: string) => editor.path === path || Boolean(editor.path?.startsWith(`${path}/`));

  /** Delete through delete_path, as an agent would; undo in Review brings it back. */
  async function deletePath(path: string, type: string): Promise<void> {
    const unsaved = editor.dirty && holdsOpenFile(path) ? ` Your unsaved changes to ${editor.path} go with it.` : '';
    if (
      !window.confirm(
        `Delete ${path}${type === 'directory' ? ' and everything in it' : ''}?${unsaved} Undo in Review brings it back.`,
      )
    )
      return;
    tree.focusAfter(path);
    // The person just said yes above: a workspace that asks before deletes need not ask again.
    const envelope = await session.call(
      'delete_path',
      { path, ...(type === 'directory' ? { recursive: true } : {}) },
      { approved: [path] },
    );
    toolConsole.show(envelope);
    if (!envelope.ok) toast(failureText(`Could not delete ${path}`, envelope.error), 'error');
    else if (holdsOpenFile(path)) editor.close();
  }

  /** Rename or move through move_path; the editor follows the file to its new name, unsaved text included. */
  async function movePath(from: string): Promise<void> {
    const to = window.prompt(`Move or rename ${from} to:`, from)?.trim();
    if (!to || to === from) {
      tree.focusAfter(from);
      await tree.refresh();
      return;
    }
    tree.focusAfter(to, from);
    const envelope = await session.call('move_path', { from, to });
    toolConsole.show(envelope);
    if (!envelope.ok) {
      tree.focusAfter(from);
      toast(failureText(`Could not move ${from}`, envelope.error), 'error');
    } else editor.renamed(from, to);
  }

  return { deletePath, movePath };
}
