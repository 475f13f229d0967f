import type { Envelope, ToolInfo } from '../../src/index.js';
import { $, el } from '../page/dom.js';
import { exampleArgs } from './example-args.js';
import type { Session } from '../page/session.js';
import { ToolForm } from './form.js';
import { commandOutcome, renderTerminal } from './terminal.js';

const NO_RESULT = 'Run a tool to see its envelope here.';

/** Show an envelope: a summary line (code, message, hint, problems) over the pretty-printed JSON. */
export function renderEnvelope(summary: HTMLElement, pre: HTMLElement, envelope: Envelope): void {
  summary.hidden = false;
  summary.replaceChildren();
  if (envelope.ok) {
    summary.className = 'summary ok';
    summary.append(el('span', 'ok', 'code'), el('span', `${envelope.tool} succeeded`, 'message'));
  } else {
    const { code, message, hint, problems } = envelope.error;
    summary.className = 'summary error';
    summary.append(el('span', code, 'code'), el('span', message, 'message'));
    if (hint) summary.append(el('p', `Hint: ${hint}`, 'hint'));
    if (problems?.length) {
      const list = el('ul', undefined, 'problems');
      list.append(...problems.map((p) => el('li', `${p.path || '(arguments)'} ${p.message}`)));
      summary.append(list);
    }
  }
  pre.textContent = JSON.stringify(envelope, null, 2);
}

/**
 * The tool console: any tool of the workspace's toolset, its arguments through a form generated
 * from the schema or as raw JSON (the two stay in sync when you switch), and the envelope.
 */
export class ToolConsole {
  private tools: ToolInfo[] = [];
  private mode: 'form' | 'json' = 'form';
  private readonly select = $<HTMLSelectElement>('tool');
  private readonly raw = $<HTMLTextAreaElement>('args');
  private readonly form: ToolForm;
  private readonly runButton = $<HTMLButtonElement>('run');

  /** `openReview` shows the Review tab (a command's change links there). */
  constructor(
    private readonly session: Session,
    private readonly openReview: () => void = () => {},
  ) {
    this.form = new ToolForm($('arg-form'), () => void this.run());
    // Another tool: the result below belonged to the one before, so it goes.
    this.select.addEventListener('change', () => {
      this.showTool();
      this.clearResult();
    });
    $('show-json').addEventListener('click', () => {
      const open = $('envelope').hidden;
      $('envelope').hidden = !open;
      $('show-json').setAttribute('aria-expanded', String(open));
      $('show-json').textContent = open ? 'Hide JSON' : 'Show JSON';
    });
    $('mode-form').addEventListener('click', () => this.setMode('form'));
    $('mode-json').addEventListener('click', () => this.setMode('json'));
    $('reset-args').addEventListener('click', () => this.showTool());
    $<HTMLFormElement>('call-form').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run();
    });
    // Ctrl+Enter, as the Run button says, from any field of the form: inputs, selects and text areas.
    $<HTMLFormElement>('call-form').addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        event.stopPropagation();
        void this.run();
      }
    });
  }

  async load(): Promise<void> {
    this.tools = await this.session.workspace.listTools();
    const previous = this.select.value;
    this.select.replaceChildren(...this.tools.map((t) => Object.assign(el('option', t.name), { value: t.name })));
    if (this.tools.some((t) => t.name === previous)) this.select.value = previous;
    this.showTool();
  }

  /** Aim the console at a file: pick read_file unless the current tool takes a path, keep other arguments. */
  useFile(path: string): void {
    if (!('path' in (this.current().input_schema.properties ?? {}))) {
      this.select.value = 'read_file';
      this.showTool();
    }
    this.fill({ ...this.args(), path });
  }

  /** Put a tool and its arguments in the console, as a replayed step or a deep link does. */
  prepare(tool: string, args: Record<string, unknown>): void {
    this.select.value = tool;
    this.showTool();
    this.fill(args);
  }

  private current(): ToolInfo {
    return this.tools.find((t) => t.name === this.select.value) ?? this.tools[0]!;
  }

  private showTool(): void {
    const tool = this.current();
    if (!tool) return;
    $('tool-description').textContent = tool.description;
    this.form.render(tool);
    this.fill(exampleArgs(tool));
    this.raw.classList.remove('invalid');
  }

  private fill(args: Record<string, unknown>): void {
    this.form.setValues(args);
    this.raw.value = JSON.stringify(args, null, 2);
  }

  /** The arguments in the visible mode; a raw box that is not JSON gives null. */
  private args(): Record<string, unknown> {
    if (this.mode === 'form') return this.form.values();
    try {
      const parsed: unknown = JSON.parse(this.raw.value || '{}');
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }

  private setMode(mode: 'form' | 'json'): void {
    if (mode === this.mode) return;
    if (mode === 'json') this.raw.value = JSON.stringify(this.form.values(), null, 2);
    else this.form.setValues(this.args());
    this.mode = mode;
    // Toggle buttons in a group: aria-pressed (aria-selected belongs to tabs and options).
    $('mode-form').setAttribute('aria-pressed', String(mode === 'form'));
    $('mode-json').setAttribute('aria-pressed', String(mode === 'json'));
    $('arg-form').hidden = mode !== 'form';
    this.raw.hidden = mode !== 'json';
  }

  async run(): Promise<void> {
    const tool = this.current().name;
    let args: unknown;
    if (this.mode === 'json') {
      try {
        args = this.raw.value.trim() === '' ? {} : JSON.parse(this.raw.value);
        this.raw.classList.remove('invalid');
      } catch (error) {
        // Shown as the CLI shows it: malformed arguments are an envelope too.
        this.raw.classList.add('invalid');
        this.show({
          ok: false,
          tool,
          error: {
            code: 'INVALID_ARGUMENTS',
            message: `the arguments are not valid JSON (${(error as Error).message})`,
            problems: [{ path: '', message: 'must be valid JSON' }],
          },
        });
        return;
      }
    } else {
      args = this.form.values();
    }
    this.runButton.disabled = true;
    // A long call (npm install) says how far it has got until its envelope arrives.
    const line = $('call-progress');
    const onProgress = (_done: number, _total?: number, message?: string) => {
      if (!message) return;
      line.textContent = message;
      line.hidden = false;
    };
    try {
      this.show(await this.session.call(tool, args, { onProgress }));
    } finally {
      line.hidden = true;
      line.textContent = '';
      this.runButton.disabled = false;
    }
  }

  /**
   * A finished command reads as a terminal with its JSON one click away; every other result (and
   * a command that could not run) as the summary over the JSON.
   */
  show(envelope: Envelope): void {
    renderEnvelope($('summary'), $('envelope'), envelope);
    const outcome = commandOutcome(envelope);
    const terminal = $('terminal');
    terminal.hidden = !outcome;
    $('show-json').hidden = !outcome;
    $('show-json').textContent = 'Show JSON';
    $('show-json').setAttribute('aria-expanded', 'false');
    $('envelope').hidden = Boolean(outcome);
    // The exit line says how it went; a green "succeeded" above a failing exit code would not.
    if (outcome) $('summary').hidden = true;
    if (outcome) renderTerminal(terminal, outcome, this.openReview);
  }

  private clearResult(): void {
    $('summary').hidden = true;
    $('terminal').hidden = true;
    $('show-json').hidden = true;
    $('envelope').hidden = false;
    $('envelope').textContent = NO_RESULT;
  }
}
