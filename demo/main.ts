import type { BackendKind } from '../web/protocol.js';
import sampleSession from '../public/sample-session.jsonl?raw';
import { $, clearToasts, counted, el, inTurn, toast } from './page/dom.js';
import { failureText } from './page/failure-words.js';
import { Editor } from './files/editor.js';
import { FileTree } from './files/tree.js';
import { Replay } from './agent/replay.js';
import { Review } from './review/panel.js';
import { sampleFiles } from './files/sample-files.js';
import { BACKENDS, Session, TOOL_CHOICES, type ToolChoice } from './page/session.js';
import { ApprovalDialog } from './page/approval-dialog.js';
import { AgentPanel } from './agent/panel.js';
import { GitPanel } from './git/panel.js';
import { PreviewPanel } from './preview/panel.js';
import { setUpTabs } from './page/tabs.js';
import { ToolConsole } from './console/panel.js';
import { wireTransfers } from './files/transfer-buttons.js';
import { wireReactSample } from './files/react-sample-button.js';
import { watchLock } from './page/lock-watch.js';
import { ForksPanel } from './forks/panel.js';
import { treeActions } from './files/tree-actions.js';

const approvals = new ApprovalDialog();
// Every confirmation the worker sends across (plain JSON) is answered by a person in this dialog.
const session = new Session((request) => approvals.ask(request));
const showTab = setUpTabs();
const toolConsole = new ToolConsole(session, () => showTab('review'));
const editor = new Editor(
  session,
  $('editor'),
  {
    path: $('editor-path'),
    lang: $('editor-lang'),
    state: $('editor-state'),
    save: $<HTMLButtonElement>('save'),
    banner: $('editor-banner'),
  },
  (path) => {
    tree.select(path);
    rememberOpenFile(path);
  },
);
const tree = new FileTree(
  session,
  $<HTMLUListElement>('file-tree'),
  $('tree-empty'),
  $('file-count'),
  (path) => void openFile(path),
  (path, type) => void deletePath(path, type),
  (path) => void movePath(path),
);
const review = new Review(
  session,
  (envelope) => toolConsole.show(envelope),
  editor,
  // a turn later: the preview hears the change after the review does, and only then is its reload pending
  () => Promise.resolve().then(() => preview.afterReload()),
);
const replay = new Replay(session, (envelope) => toolConsole.show(envelope));
const agentPanel = new AgentPanel(session, (jsonl) => {
  replay.load(jsonl, 'agent-run.jsonl');
  showTab('replay');
});
const preview = new PreviewPanel(session);
// For benchmarks and tests that drive the page: the same session the panels use, nothing more.
(window as unknown as { sandpitPlayground: { session: Session } }).sandpitPlayground = { session };
new GitPanel(
  session,
  () => {
    preview.filesChanged();
    void Promise.all([tree.refresh(), review.refresh(true)]);
  },
  () => tree.files.length > 0,
  // A clone from a workspace with files goes into a new one on the same storage.
  async (name) => {
    if (name === session.choice.name) {
      toast(`“${name}” is the workspace open now, and it has files: name a new one for the clone.`, 'error');
      return false;
    }
    nameInput.value = name;
    await openWorkspace(session.choice.backend, name);
    return session.isOpen && session.choice.name === name;
  },
);

const forks = new ForksPanel(
  session,
  () => void Promise.all([tree.refresh(), review.refresh(true)]),
  () => !editor.dirty || window.confirm(`Discard unsaved changes to ${editor.path}?`),
  () => agentPanel.modelSettings(),
);
// Working on a fork (or back on the workspace): every panel shows that one now.
session.onView(() => {
  reopening = true;
  editor.close();
  reopening = false;
  review.reset();
  preview.filesChanged();
  void Promise.all([tree.refresh(), review.refresh(true)]).then(() => showStatus());
});

async function openFile(path: string): Promise<void> {
  // The file is open already: reading it again would put the saved text over what is being typed.
  if (editor.editingText === path) return;
  if (editor.dirty && editor.path !== path && !window.confirm(`Discard unsaved changes to ${editor.path}?`)) return;
  if (await editor.open(path)) toolConsole.useFile(path), void review.hunks.refresh();
}

const { deletePath, movePath } = treeActions(session, editor, tree, toolConsole);

// Unsaved work is never lost without a question: closing or reloading the tab asks too, and so
// does leaving a Memory workspace that holds files (nothing keeps it once the page goes).
window.addEventListener('beforeunload', (event) => {
  if (!editor.dirty && !memoryLoss()) return;
  event.preventDefault();
  event.returnValue = '';
});

/**
 * What closing the open workspace would lose, in words, or null when nothing would: only a
 * Memory workspace is gone once closed (OPFS and IndexedDB keep theirs for the next visit).
 */
function memoryLoss(): string | null {
  if (session.choice.backend !== 'memory' || !session.isOpen) return null;
  const files = tree.files.length;
  if (files === 0) return null;
  const changes = review.changeCount;
  return `its ${counted(files, 'file')}${changes ? ` and ${counted(changes, 'change')} in Review` : ''}`;
}

// The preview's reload goes first (it is what a person watches after a save); the tree and the
// timeline redraw when it has loaded. The editor follows at once: it may hold what they type.
session.onChange((event) => {
  void preview.afterReload().then(() => tree.refresh());
  void editor.changed(event.paths, event.tool);
});
session.onSettled((envelope) => {
  review.noteChange(envelope);
  void preview.afterReload().then(() => review.refresh(true));
});
session.onSwitch(() => {
  // Messages about the workspace before are not about this one.
  clearToasts();
  // Closing for a switch is not the person closing the file: keep it remembered for the next visit.
  reopening = true;
  editor.close();
  reopening = false;
  review.reset();
});
session.onLockChange((locked) => {
  showLocked(locked);
  if (locked) void waitForUnlock();
  // The other tab let go: this tab's calls now open the workspace, so show what it holds.
  if (!locked) void Promise.all([tree.refresh(), review.refresh(true)]).then(() => showStatus());
});

/** While another tab holds the workspace, nothing here may make files: the banner says why. */
function showLocked(locked: boolean): void {
  $('locked').hidden = !locked;
  for (const id of ['seed-sample', 'seed-react']) $<HTMLButtonElement>(id).disabled = locked;
  $('new-file').hidden = locked;
  if (locked) $<HTMLFormElement>('new-file-form').hidden = true;
}

const waitForUnlock = () => watchLock(session);

// --- the workspace picker: storage and name, remembered for the next visit ---
const backendSelect = $<HTMLSelectElement>('backend');
const nameInput = $<HTMLInputElement>('ws-name');
const toolsSelect = $<HTMLSelectElement>('toolset');
backendSelect.append(...BACKENDS.map((b) => Object.assign(el('option', `${b.label} (${b.note})`), { value: b.kind })));
toolsSelect.append(...TOOL_CHOICES.map((t) => Object.assign(el('option', t.label), { value: t.value })));
backendSelect.value = session.choice.backend;
nameInput.value = session.choice.name;
toolsSelect.value = session.choice.tools ?? 'canonical';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The open file is kept per workspace, so a reload opens it again (OPFS and IndexedDB keep the file too). */
const openFileKey = () => `sandpit.demo.open:${session.choice.backend}:${session.choice.name}`;
let reopening = false;
function rememberOpenFile(path: string | null): void {
  if (reopening) return;
  try {
    if (path) localStorage.setItem(openFileKey(), path);
    else localStorage.removeItem(openFileKey());
  } catch {
    // Storage off: the next visit opens no file.
  }
}
async function reopenFile(): Promise<void> {
  let path: string | null = null;
  try {
    path = localStorage.getItem(openFileKey());
  } catch {
    return;
  }
  if (path && tree.files.some((f) => f.path === path)) await openFile(path);
}

// One workspace change at a time: a Storage pick made while another workspace was still opening
// ran beside it, and the page could end on the first pick or never finish opening the second.
const oneChange = inTurn();
const openWorkspace = oneChange(openWorkspaceNow);

async function openWorkspaceNow(
  backend: BackendKind,
  name: string,
  tools: ToolChoice = toolsSelect.value as ToolChoice,
): Promise<void> {
  const current = session.choice;
  const putBack = () => {
    backendSelect.value = current.backend;
    nameInput.value = current.name;
    toolsSelect.value = current.tools ?? 'canonical';
  };
  if (!NAME.test(name)) {
    // Checked before anything closes, so a bad name leaves the open workspace as it was.
    putBack();
    nameInput.value = name;
    nameInput.focus();
    toast(
      `“${name}” cannot name a workspace: use 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit.`,
      'error',
    );
    return;
  }
  const lost = memoryLoss();
  const same = backend === current.backend && name === current.name;
  const leaving = lost
    ? same
      ? `Leave the Memory workspace “${name}” and start it empty? ${cap(lost)} are lost: Memory keeps nothing once it is closed.`
      : `Leave the Memory workspace “${current.name}”? ${cap(lost)} are lost: Memory keeps nothing once it is closed.`
    : '';
  const question = editor.dirty
    ? `Discard unsaved changes to ${editor.path} and open another workspace?${leaving ? ` ${leaving}` : ''}`
    : leaving;
  if (question && !window.confirm(question)) {
    putBack();
    return;
  }
  // A question asked for the workspace being closed has nobody left to act on it: it is a no.
  approvals.denyOpen();
  document.body.dataset.ready = 'false';
  $('status').textContent = `opening ${name}…`;
  try {
    await session.open({ backend, name, tools });
  } catch (error) {
    putBack();
    toast(`Could not open ${name}: ${(error as Error).message}. The workspace that was open stays open.`, 'error');
  }
  if (!session.isOpen) {
    // Neither the new workspace nor the one before would open (offline before the code came):
    // the panels have nothing to show, and the form stays usable for another try.
    $('status').textContent = 'no workspace open: pick a backend to try again';
    document.body.dataset.ready = 'true';
    return;
  }
  showLocked(session.locked);
  if (session.locked) void waitForUnlock();
  await Promise.all([toolConsole.load(), tree.refresh(), review.refresh(true), forks.refresh()]);
  await reopenFile();
  showStatus();
  document.body.dataset.ready = 'true';
}

// Tests and curious people can tell when the page would keep working offline.
session.onOfflineReady((ready) => {
  document.body.dataset.offlineReady = String(ready);
  $('status').title = ready
    ? 'Everything this page needs is loaded: it keeps working offline.'
    : 'Still loading the code for the next switch.';
});

// Tests can tell when the next spare worker waits for the preview's load (see Session.spareWaitsFor).
session.onSpareHeld((held) => {
  document.body.dataset.spareWaits = held ? 'preview' : '';
});

function showStatus(): void {
  const { backend, name } = session.choice;
  const label = BACKENDS.find((b) => b.kind === backend)!.label;
  const tools =
    session.choice.tools === 'cowork'
      ? ' · cowork tools'
      : session.choice.tools === 'canonical-ask'
        ? ' · deletes asked'
        : '';
  const fork = session.viewing ? ` · fork ${session.viewing}` : '';
  $('status').textContent = `${label} · ${name}${fork}${tools}${session.locked ? ' · locked by another tab' : ''}`;
  $('status').title = session.locked ? 'Another tab holds this workspace; the banner below says what to do.' : '';
}

backendSelect.addEventListener(
  'change',
  () => void openWorkspace(backendSelect.value as BackendKind, nameInput.value || 'playground'),
);
// Other tools over the same storage: the files and the history stay, so nothing needs asking.
toolsSelect.addEventListener('change', () => void changeTools(toolsSelect.value as ToolChoice));
const changeTools = oneChange(changeToolsNow);
async function changeToolsNow(tools: ToolChoice): Promise<void> {
  const before = session.choice.tools ?? 'canonical';
  // A question asked by the old tools has nobody left to act on it: it is a no.
  approvals.denyOpen();
  document.body.dataset.ready = 'false';
  try {
    await session.retool(tools);
  } catch (error) {
    toolsSelect.value = before;
    toast(`Could not change the tools: ${(error as Error).message}. The tools before stay.`, 'error');
  }
  await toolConsole.load();
  showStatus();
  document.body.dataset.ready = 'true';
}
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
  else if (!editor.dirty || window.confirm(`Discard unsaved changes to ${editor.path}?`)) editor.create(path);
});
newFilePath.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') newFileForm.hidden = true;
});

// One change and one snapshot for the whole sample, so a single Undo takes it all back.
$('seed-sample').addEventListener('click', async () => {
  const encoder = new TextEncoder();
  const files = Object.entries(sampleFiles).map(([path, content]) => ({
    path,
    bytes: typeof content === 'string' ? encoder.encode(content) : (content as Uint8Array),
  }));
  const envelope = await session.importFiles(files);
  if (!envelope.ok) {
    toast(failureText('Could not add the sample project', envelope.error), 'error');
    return;
  }
  await tree.refresh();
  await openFile('README.md');
  // The button went with the empty state: the keyboard goes to the file it opened, not the page
  // (the tree redraws as the change lands, so focus there would fall again).
  $('editor').querySelector<HTMLElement>('.cm-content')?.focus();
});

wireTransfers(session);
wireReactSample(session, toolConsole, showTab, (path) => tree.refresh().then(() => openFile(path)));

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

// --- keyboard: Ctrl+S saves from anywhere, Alt+N new file, Alt+Z undo ---
document.addEventListener('keydown', (event) => {
  if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
    event.preventDefault();
    void editor.save();
    return;
  }
  if (!event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === 'n' || event.key === 'N') {
    event.preventDefault();
    startNewFile();
  }
  if (event.key === 'z' || event.key === 'Z') {
    event.preventDefault();
    $('undo').click();
  }
});

await openWorkspace(session.choice.backend, session.choice.name, session.choice.tools);
if (PreviewPanel.wasOpen()) showTab('preview');
