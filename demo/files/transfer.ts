import { zipSync } from 'fflate';
import { $ } from '../page/dom.js';
import type { Session } from '../page/session.js';

export interface PickedFile {
  path: string;
  file: File;
}

// Folders nobody wants copied into a playground, and Sandpit's own state.
const SKIP = new Set(['.git', 'node_modules', '.sandpit']);

function progress(label: string, done: number, total: number): void {
  const box = $('transfer');
  box.hidden = false;
  $('transfer-label').textContent = label;
  const bar = $<HTMLProgressElement>('transfer-progress');
  bar.max = Math.max(total, 1);
  bar.value = done;
  $('transfer-count').textContent = `${done} / ${total}`;
}

function finish(message: string): void {
  $('transfer-label').textContent = message;
  setTimeout(() => {
    $('transfer').hidden = true;
  }, 4000);
}

/** Drop the one folder every path starts with (the folder the person picked), keep the rest. */
export function stripCommonFolder(paths: string[]): (path: string) => string {
  const first = paths[0]?.split('/')[0];
  const shared = first !== undefined && paths.every((p) => p.includes('/') && p.split('/')[0] === first);
  return (path) => (shared ? path.slice(first!.length + 1) : path);
}

/**
 * Copy files from disk into the workspace exactly as they are (binary files, any encoding or line
 * endings), as one change and one snapshot, so a single Undo takes the whole import back.
 */
export async function importFiles(session: Session, picked: PickedFile[]): Promise<void> {
  const wanted = picked.filter((p) => !p.path.split('/').some((part) => SKIP.has(part)));
  // Say what was left out and why, instead of a count that silently does not add up.
  const leftOut = new Map<string, number>();
  for (const p of picked) {
    const folder = p.path.split('/').find((part) => SKIP.has(part));
    if (folder) leftOut.set(folder, (leftOut.get(folder) ?? 0) + 1);
  }
  const leftOutNote = leftOut.size
    ? ` Left out ${[...leftOut].map(([folder, n]) => `${n} file${n === 1 ? '' : 's'} in ${folder}/`).join(' and ')}: dependencies and version-control folders are not copied (.sandpit is Sandpit's own).`
    : '';
  const strip = stripCommonFolder(wanted.map((p) => p.path));
  const files: Array<{ path: string; bytes: Uint8Array }> = [];
  progress('Reading', 0, wanted.length);
  for (const [index, { path, file }] of wanted.entries()) {
    files.push({ path: strip(path), bytes: new Uint8Array(await file.arrayBuffer()) });
    progress('Reading', index + 1, wanted.length);
  }
  progress('Importing', 0, files.length);
  const envelope = await session.importFiles(files, (done, total) => progress('Importing', done, total));
  if (!envelope.ok) {
    finish(`Import failed: ${envelope.error.code}: ${envelope.error.message}`);
    return;
  }
  const { files: written, skipped } = envelope.result as {
    files: unknown[];
    skipped: Array<{ path: string; code: string }>;
  };
  const count = written.length;
  finish(
    `Imported ${count} file${count === 1 ? '' : 's'}${
      skipped.length
        ? `; refused ${skipped.length}: ${skipped
            .slice(0, 3)
            .map((s) => `${s.path} (${s.code})`)
            .join(', ')}${skipped.length > 3 ? '…' : ''}`
        : ''
    }.${leftOutNote}`,
  );
}

/** Walk dropped folders through the File and Directory Entries API (the only way a drop exposes folders). */
export async function droppedFiles(data: DataTransfer): Promise<PickedFile[]> {
  const out: PickedFile[] = [];
  const entries = [...data.items]
    .map((item) => item.webkitGetAsEntry())
    .filter((e): e is FileSystemEntry => e !== null);
  // Files handed over without entries (a page-made DataTransfer, some platforms) still import, flat.
  if (entries.length === 0) return [...data.files].map((file) => ({ path: file.name, file }));
  async function walk(entry: FileSystemEntry, prefix: string): Promise<void> {
    if (entry.isFile) {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
      out.push({ path: `${prefix}${entry.name}`, file });
    } else if (entry.isDirectory && !SKIP.has(entry.name)) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      // readEntries hands out a folder in batches; an empty batch means the end.
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
        if (batch.length === 0) break;
        for (const child of batch) await walk(child, `${prefix}${entry.name}/`);
      }
    }
  }
  for (const entry of entries) await walk(entry, '');
  return out;
}

/**
 * Zip every file of the workspace, byte for byte (binary files, encodings and line endings as
 * stored), and hand it to the browser as a download. Links, which a zip cannot carry, are skipped.
 */
export async function exportZip(session: Session, name: string): Promise<{ files: number; skipped: string[] }> {
  progress('Exporting', 0, 1);
  const { files, skipped } = await session.workspace.exportFiles();
  const zipped: Record<string, Uint8Array> = {};
  progress('Zipping', 0, files.length);
  for (const [index, file] of files.entries()) {
    zipped[file.path] = file.bytes;
    if (index % 50 === 0) progress('Zipping', index + 1, files.length);
  }
  const blob = new Blob([zipSync(zipped, { level: 6 }) as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
  progress('Exporting', files.length, files.length);
  const link = Object.assign(document.createElement('a'), { href: URL.createObjectURL(blob), download: `${name}.zip` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  finish(
    `Exported ${files.length} file${files.length === 1 ? '' : 's'} to ${name}.zip${skipped.length ? `; skipped ${skipped.length} link${skipped.length === 1 ? '' : 's'}` : ''}.`,
  );
  return { files: files.length, skipped };
}
