import type { BackendKind } from '../web/protocol.js';
import sampleSession from '../public/sample-session.jsonl?raw';
import { $, el, toast } from './dom.js';
import { Editor } from './editor.js';
import { FileTree } from './file-tree.js';
import { Replay } from './replay.js';
import { Review } from './review.js';
import { sampleFiles } from './sample-files.js';
import { BACKENDS, Session } from './session.js';
import { AgentPanel } from './agent-panel.js';
import { GitPanel } from './git-panel.js';
import { PreviewPanel } from './preview-panel.js';
import { setUpTabs } from './tabs.js';
import { ToolConsole } from './tool-console.js';
import { droppedFiles, exportZip, importFiles, type PickedFile } from './transfer.js';

const session = new Session();
const showTab = setUpTabs();
const toolConsole = new ToolConsole(session);
const editor = new Editor(session, $('editor'), {
  path: $('editor-path'), lang: $('editor-lang'), state: $('editor-state'), save: $<HTMLButtonElement>('save'), banner: $('editor-banner'),
}, (path) => tree.select(path));
const tree = new FileTree(session, $<HTMLUListElement>('file-tree'), $('tree-empty'), $('file-count'), (path) => void openFile(path), (path, type) => void deletePath(path, type), (path) => void movePath(path));
const review = new Review(session, (envelope) => toolConsole.show(envelope));
const replay = new Replay(session, (envelope) => toolConsole.show(envelope));
new AgentPanel(session, (jsonl) => {
  replay.load(jsonl, 'agent-run.jsonl');
  showTab('replay');
});
const preview = new PreviewPanel(session);
// For benchmarks and tests that drive the page: the same session the panels use, nothing more.
(window as unknown as { sandpitPlayground: { session: Session } }).sandpitPlayground = { session };
new GitPanel(session, () => {
  preview.filesChanged();
  void Promise.all([tree.refresh(), review.refresh(true)]);
});

async function openFile(path: string): Promise<void> {
  if (editor.dirty && editor.path !== path && !window.confirm(`Discard unsaved changes to ${editor.path}?`)) return;
  if (await editor.open(path)) toolConsole.useFile(path);
}

/** Delete through delete_path, as an agent would; undo in Review brings it back. */
async function deletePath(path: string, type: string): Promise<void> {
  if (!window.confirm(`Delete ${path}${type === 'directory' ? ' and everything in it' : ''}? Undo in Review brings it back.`)) return;
  const envelope = await session.call('delete_path', { path, ...(type === 'directory' ? { recursive: true } : {}) });
  toolConsole.show(envelope);
  if (!envelope.ok) toast(`${envelope.error.code}: ${envelope.error.message}`, 'error');
  else if (editor.path === path || editor.path?.startsWith(`${path}/`)) editor.close();
}

/** Rename or move through move_path; the editor follows the file to its new name. */
async function movePath(from: string): Promise<void> {
  const to = window.prompt(`Move or rename ${from} to:`, from)?.trim();
  if (!to || to === from) return;
  const envelope = await session.call('move_path', { from, to });
  toolConsole.show(envelope);
  if (!envelope.ok) toast(`${envelope.error.code}: ${envelope.error.message}`, 'error');
  else if (editor.path === from && !editor.dirty) await editor.open(to);
}

session.onChange((event) => {
  void tree.refresh();
  void editor.changed(event.paths, event.tool);
});
session.onSettled((envelope) => {
  review.noteChange(envelope);
  void review.refresh(true);
});
session.onSwitch(() => {
  editor.close();
  review.reset();
});
session.onLockChange((locked) => {
  $('locked').hidden = !locked;
  // The other tab let go: this tab's calls now open the workspace, so show what it holds.
  if (!locked) void Promise.all([tree.refresh(), review.refresh(true)]).then(() => showStatus());
});

// --- the workspace picker: storage and name, remembered for the next visit ---
const backendSelect = $<HTMLSelectElement>('backend');
const nameInput = $<HTMLInputElement>('ws-name');
backendSelect.append(...BACKENDS.map((b) => Object.assign(el('option', `${b.label} (${b.note})`), { value: b.kind })));
backendSelect.value = session.choice.backend;
nameInput.value = session.choice.name;

async function openWorkspace(backend: BackendKind, name: string): Promise<void> {
  document.body.dataset.ready = 'false';
  $('status').textContent = `opening ${name}…`;
  try {
    await session.open({ backend, name });
  } catch (error) {
    $('status').textContent = 'could not open the workspace';
    toast((error as Error).message, 'error');
    return;
  }
  $('locked').hidden = !session.locked;
  await Promise.all([toolConsole.load(), tree.refresh(), review.refresh(true)]);
  showStatus();
  document.body.dataset.ready = 'true';
}

function showStatus(): void {
  const { backend, name } = session.choice;
  const label = BACKENDS.find((b) => b.kind === backend)!.label;
  $('status').textContent = `${label} · ${name}${session.locked ? ' · locked by another tab' : ''}`;
}

backendSelect.addEventListener('change', () => void openWorkspace(backendSelect.value as BackendKind, nameInput.value || 'playground'));
$<HTMLFormElement>('workspace-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void openWorkspace(backendSelect.value as BackendKind, nameInput.value);
});

// --- files: new file, sample project, import (picker and drop), export ---
const newFileForm = $<HTMLFormElement>('new-file-form');
const newFilePath = $<HTMLInputElement>('new-file-path');
function startNewFile(): void {
  newFileForm.hidden = false;
  newFilePath.value = '';
  newFilePath.focus();
}
$('new-file').addEventListener('click', startNewFile);
newFileForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const path = newFilePath.value.trim().replace(/^\.?\/+/, '');
  if (!path) return;
  newFileForm.hidden = true;
  if (tree.files.some((f) => f.path === path)) void openFile(path);
  else editor.create(path);
});
newFilePath.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') newFileForm.hidden = true;
});

$('seed-sample').addEventListener('click', async () => {
  for (const [path, content] of Object.entries(sampleFiles)) {
    await session.call('write_file', { path, content: typeof content === 'string' ? content : new TextDecoder().decode(content as Uint8Array) });
  }
  await openFile('README.md');
});

const importInput = $<HTMLInputElement>('import-input');
importInput.addEventListener('change', async () => {
  const files = [...(importInput.files ?? [])].map((file): PickedFile => ({ path: file.webkitRelativePath || file.name, file }));
  importInput.value = '';
  if (files.length) await importFiles(session, files);
});
const filesPanel = $('files-panel');
filesPanel.addEventListener('dragover', (event) => {
  event.preventDefault();
  filesPanel.classList.add('drop-target');
});
filesPanel.addEventListener('dragleave', (event) => {
  if (!filesPanel.contains(event.relatedTarget as Node | null)) filesPanel.classList.remove('drop-target');
});
filesPanel.addEventListener('drop', async (event) => {
  event.preventDefault();
  filesPanel.classList.remove('drop-target');
  if (!event.dataTransfer) return;
  const files = await droppedFiles(event.dataTransfer);
  if (files.length) await importFiles(session, files);
});
$('export').addEventListener('click', () => void exportZip(session, session.choice.name).catch((error: Error) => toast(error.message, 'error')));

// --- replay ---
const loadSample = () => replay.load(sampleSession, 'sample-session.jsonl');
$('replay-load-sample').addEventListener('click', loadSample);
$('empty-replay').addEventListener('click', () => {
  loadSample();
  showTab('replay');
});
const replayFile = $<HTMLInputElement>('replay-file');
replayFile.addEventListener('change', async () => {
  const file = replayFile.files?.[0];
  replayFile.value = '';
  if (file) replay.load(await file.text(), file.name);
});

// --- keyboard: Alt+N new file, Alt+Z undo ---
document.addEventListener('keydown', (event) => {
  if (!event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === 'n' || event.key === 'N') { event.preventDefault(); startNewFile(); }
  if (event.key === 'z' || event.key === 'Z') { event.preventDefault(); $('undo').click(); }
});

await openWorkspace(session.choice.backend, session.choice.name);
if (PreviewPanel.wasOpen()) showTab('preview');
