import { zipSync, strToU8 } from 'fflate';
import { $ } from './dom.js';
import type { Session } from './session.js';

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
  setTimeout(() => { $('transfer').hidden = true; }, 4000);
}

/** Drop the one folder every path starts with (the folder the person picked), keep the rest. */
export function stripCommonFolder(paths: string[]): (path: string) => string {
  const first = paths[0]?.split('/')[0];
  const shared = first !== undefined && paths.every((p) => p.includes('/') && p.split('/')[0] === first);
  return (path) => (shared ? path.slice(first!.length + 1) : path);
}

/**
 * Copy files from disk into the workspace with write_file, as an agent would create them.
 * Text must be UTF-8 (a BOM is kept); binary files are skipped and counted, because the tools
 * speak text.
 */
export async function importFiles(session: Session, picked: PickedFile[]): Promise<void> {
  const wanted = picked.filter((p) => !p.path.split('/').some((part) => SKIP.has(part)));
  const strip = stripCommonFolder(wanted.map((p) => p.path));
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let written = 0;
  const skipped: string[] = [];
  progress('Importing', 0, wanted.length);
  for (const [index, { path, file }] of wanted.entries()) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    let content: string | null = null;
    if (!bytes.subarray(0, 8192).includes(0)) {
      try { content = decoder.decode(bytes); } catch { content = null; }
    }
    const target = strip(path);
    const envelope = content === null ? null : await session.call('write_file', { path: target, content });
    if (envelope?.ok) written++;
    else skipped.push(target);
    progress('Importing', index + 1, wanted.length);
  }
  finish(`Imported ${written} file${written === 1 ? '' : 's'}${skipped.length ? `; skipped ${skipped.length} (binary or refused): ${skipped.slice(0, 3).join(', ')}${skipped.length > 3 ? '…' : ''}` : ''}.`);
}

/** Walk dropped folders through the File and Directory Entries API (the only way a drop exposes folders). */
export async function droppedFiles(data: DataTransfer): Promise<PickedFile[]> {
  const out: PickedFile[] = [];
  const entries = [...data.items].map((item) => item.webkitGetAsEntry()).filter((e): e is FileSystemEntry => e !== null);
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
 * Zip every file of the workspace and hand it to the browser as a download. Files are read with
 * read_file, so line endings and a BOM are put back from what it reports; binary files, which
 * the text tools do not read, are listed as skipped.
 */
export async function exportZip(session: Session, name: string): Promise<{ files: number; skipped: string[] }> {
  const listing = await session.must<{ entries: Array<{ path: string; type: string }> }>('list_directory', { path: '.', recursive: true, include_hidden: true, max_entries: 10000 });
  const files = listing.entries.filter((e) => e.type === 'file');
  const zipped: Record<string, Uint8Array> = {};
  const skipped: string[] = [];
  progress('Exporting', 0, files.length);
  for (const [index, { path }] of files.entries()) {
    let envelope = await session.call('read_file', { path });
    if (envelope.ok && (envelope.result as { has_more?: boolean }).has_more) {
      envelope = await session.call('read_file', { path, start_line: 1, end_line: (envelope.result as { total_lines: number }).total_lines });
    }
    if (envelope.ok) {
      const { content, eol, bom } = envelope.result as { content: string; eol: string; bom?: unknown };
      const text = (bom ? '\uFEFF' : '') + (eol === 'crlf' ? content.replace(/\n/g, '\r\n') : content);
      zipped[path] = strToU8(text);
    } else {
      skipped.push(path);
    }
    progress('Exporting', index + 1, files.length);
  }
  const blob = new Blob([zipSync(zipped, { level: 6 })], { type: 'application/zip' });
  const link = Object.assign(document.createElement('a'), { href: URL.createObjectURL(blob), download: `${name}.zip` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  finish(`Exported ${Object.keys(zipped).length} file${Object.keys(zipped).length === 1 ? '' : 's'} to ${name}.zip${skipped.length ? `; skipped ${skipped.length}` : ''}.`);
  return { files: Object.keys(zipped).length, skipped };
}
