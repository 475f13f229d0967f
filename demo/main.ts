import { createMemoryFs, createWorkspace, type Envelope, type ToolInfo } from '../src/index.js';
import { exampleArgs } from './example-args.js';
import { listEntries } from './file-list.js';
import { sampleFiles } from './sample-files.js';

const ws = createWorkspace({ fs: createMemoryFs(sampleFiles) });
const tools = ws.listTools();

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const toolSelect = $<HTMLSelectElement>('tool');
const argsBox = $<HTMLTextAreaElement>('args');
const description = $<HTMLParagraphElement>('tool-description');
const runButton = $<HTMLButtonElement>('run');
const summary = $<HTMLDivElement>('summary');
const envelopeView = $<HTMLPreElement>('envelope');
const fileList = $<HTMLUListElement>('file-list');
const status = $<HTMLSpanElement>('status');

let calls = 0;
let lastSizes = new Map<string, number>();

function currentTool(): ToolInfo {
  return tools.find((t) => t.name === toolSelect.value) ?? tools[0]!;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** Redraw the file list; entries that are new or changed size since the last draw flash briefly. */
async function refreshFiles(): Promise<void> {
  const entries = await listEntries(ws);
  const sizes = new Map(entries.map((e) => [e.path, e.size]));
  fileList.replaceChildren(...entries.map((entry) => {
    const depth = entry.path.split('/').length - 1;
    const name = entry.path.slice(entry.path.lastIndexOf('/') + 1) + (entry.type === 'dir' ? '/' : '');
    const item = el('li', undefined, entry.type);
    item.dataset.path = entry.path;
    item.style.paddingLeft = `${0.4 + depth * 0.9}rem`;
    item.append(el('span', entry.type === 'symlink' ? `${name} →` : name, 'name'));
    if (entry.type === 'file') {
      item.append(el('span', formatSize(entry.size), 'size'));
      item.tabIndex = 0;
      item.title = `Use ${entry.path} as the path`;
      if (calls > 0 && lastSizes.get(entry.path) !== entry.size) item.classList.add('changed');
    }
    return item;
  }));
  $('file-count').textContent = `(${entries.filter((e) => e.type === 'file').length})`;
  lastSizes = sizes;
}

function showTool(path?: string): void {
  const tool = currentTool();
  description.textContent = tool.description;
  argsBox.value = JSON.stringify(exampleArgs(tool, path), null, 2);
  argsBox.classList.remove('invalid');
}

/** Aim the current tool at a file: keep the user's other arguments, replace only `path`. */
function useFile(path: string): void {
  if (!('path' in (currentTool().input_schema.properties ?? {}))) toolSelect.value = 'read_file';
  let args: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(argsBox.value);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
  } catch {
    return showTool(path);
  }
  description.textContent = currentTool().description;
  argsBox.value = JSON.stringify({ ...args, path }, null, 2);
}

function renderEnvelope(envelope: Envelope): void {
  summary.hidden = false;
  summary.replaceChildren();
  if (envelope.ok) {
    summary.className = 'summary ok';
    summary.append(el('span', 'ok', 'code'), el('span', `${envelope.tool} succeeded`));
  } else {
    const { code, message, hint, problems } = envelope.error;
    summary.className = 'summary error';
    summary.append(el('span', code, 'code'), el('span', message, 'message'));
    if (hint) summary.append(el('p', `Hint: ${hint}`, 'hint'));
    if (problems?.length) {
      const list = el('ul');
      list.append(...problems.map((p) => el('li', `${p.path || '(arguments)'} ${p.message}`)));
      summary.append(list);
    }
  }
  envelopeView.textContent = JSON.stringify(envelope, null, 2);
}

async function run(): Promise<void> {
  const tool = currentTool().name;
  let args: unknown;
  try {
    args = argsBox.value.trim() === '' ? {} : JSON.parse(argsBox.value);
    argsBox.classList.remove('invalid');
  } catch (error) {
    // Shown the way the CLI shows it: malformed arguments are an envelope too.
    argsBox.classList.add('invalid');
    renderEnvelope({
      ok: false, tool,
      error: { code: 'INVALID_ARGUMENTS', message: `the arguments are not valid JSON (${(error as Error).message})`, problems: [{ path: '', message: 'must be valid JSON' }] },
    });
    return;
  }
  runButton.disabled = true;
  try {
    const envelope = await ws.call(tool, args);
    calls++;
    renderEnvelope(envelope);
    await refreshFiles();
    status.textContent = `${calls} call${calls === 1 ? '' : 's'} · memory workspace`;
  } finally {
    runButton.disabled = false;
  }
}

toolSelect.replaceChildren(...tools.map((t) => {
  const option = el('option', t.name);
  option.value = t.name;
  return option;
}));
toolSelect.addEventListener('change', () => showTool());
$('reset-args').addEventListener('click', () => showTool());
$<HTMLFormElement>('call-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void run();
});
argsBox.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    void run();
  }
});
fileList.addEventListener('click', (event) => {
  const item = (event.target as HTMLElement).closest<HTMLLIElement>('li.file');
  if (item?.dataset.path) useFile(item.dataset.path);
});
fileList.addEventListener('keydown', (event) => {
  const item = (event.target as HTMLElement).closest<HTMLLIElement>('li.file');
  if (item?.dataset.path && (event.key === 'Enter' || event.key === ' ')) {
    event.preventDefault();
    useFile(item.dataset.path);
  }
});

showTool();
await refreshFiles();
status.textContent = `${tools.length} tools · memory workspace · ready`;
document.body.dataset.ready = 'true';
