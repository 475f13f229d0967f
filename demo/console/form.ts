import type { JsonSchema, ToolInfo } from '../../src/index.js';
import { el } from '../page/dom.js';

type Kind = 'text' | 'multiline' | 'number' | 'boolean' | 'enum' | 'list' | 'json';

interface Field {
  name: string;
  kind: Kind;
  input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
}

// Arguments that hold file text or a patch: a one-line box would mangle them.
const MULTILINE = new Set(['content', 'patch', 'old_text', 'new_text', 'expected']);

function kindOf(name: string, schema: JsonSchema): Kind {
  if (schema.enum) return 'enum';
  const type = Array.isArray(schema.type) ? (schema.type.length === 1 ? schema.type[0] : undefined) : schema.type;
  if (type === 'string') return MULTILINE.has(name) ? 'multiline' : 'text';
  if (type === 'integer' || type === 'number') return 'number';
  if (type === 'boolean') return 'boolean';
  if (type === 'array' && schema.items?.type === 'string') return 'list';
  return 'json';
}

/**
 * A form generated from a tool's JSON Schema: one labelled field per property, required ones
 * marked, descriptions as help text. Empty fields are left out of the arguments, so the tool's
 * own defaults apply; values that do not fit their type are passed as typed, so the schema
 * check (not the form) reports them, exactly as a model would see it.
 */
export class ToolForm {
  private fields: Field[] = [];

  constructor(
    private readonly host: HTMLElement,
    readonly _onSubmit: () => void,
  ) {}

  render(tool: ToolInfo): void {
    const schema = tool.input_schema;
    const required = new Set(schema.required ?? []);
    const properties = Object.entries(schema.properties ?? {}).sort(
      ([a], [b]) => Number(required.has(b)) - Number(required.has(a)),
    );
    this.fields = [];
    const rows = properties.map(([name, prop]) => {
      const kind = kindOf(name, prop);
      const id = `arg-${name}`;
      const row = el('div', undefined, `field field-${kind}`);
      const label = el('label', name);
      label.htmlFor = id;
      if (required.has(name)) label.append(el('span', ' required', 'req'));
      const input = this.inputFor(kind, prop);
      input.id = id;
      input.name = name;
      row.append(label, input);
      if (prop.description) row.append(el('p', prop.description, 'field-help'));
      this.fields.push({ name, kind, input });
      return row;
    });
    this.host.replaceChildren(...rows);
    if (rows.length === 0) this.host.append(el('p', 'This tool takes no arguments.', 'muted'));
  }

  values(): Record<string, unknown> {
    const args: Record<string, unknown> = {};
    for (const { name, kind, input } of this.fields) {
      const raw = input.value;
      if (raw === '' && kind !== 'multiline') continue;
      if (raw === '' && kind === 'multiline' && !(input as HTMLElement).dataset.touched) continue;
      switch (kind) {
        case 'number':
          args[name] = Number.isFinite(Number(raw)) ? Number(raw) : raw;
          break;
        case 'boolean':
          args[name] = raw === 'true';
          break;
        case 'list':
          args[name] = raw
            .split('\n')
            .map((s) => s.trim())
            .filter(Boolean);
          break;
        case 'json':
          try {
            args[name] = JSON.parse(raw);
          } catch {
            args[name] = raw;
          }
          break;
        default:
          args[name] = raw;
      }
    }
    return args;
  }

  /** Fill the form from arguments (raw JSON, a replayed step, a file click); unknown keys are ignored. */
  setValues(args: Record<string, unknown>): void {
    for (const { name, kind, input } of this.fields) {
      const value = args[name];
      (input as HTMLElement).dataset.touched = value === undefined ? '' : 'yes';
      if (value === undefined) input.value = '';
      else if (kind === 'list' && Array.isArray(value)) input.value = value.join('\n');
      else if (kind === 'json' && typeof value !== 'string') input.value = JSON.stringify(value);
      else input.value = String(value);
    }
  }

  focusFirst(): void {
    this.fields[0]?.input.focus();
  }

  private inputFor(kind: Kind, prop: JsonSchema): Field['input'] {
    if (kind === 'boolean' || kind === 'enum') {
      const select = el('select');
      const choices = kind === 'boolean' ? ['true', 'false'] : (prop.enum ?? []).map(String);
      const unset = el('option', prop.default !== undefined ? `default (${String(prop.default)})` : 'not set');
      unset.value = '';
      select.append(unset, ...choices.map((c) => Object.assign(el('option', c), { value: c })));
      return select;
    }
    if (kind === 'multiline' || kind === 'list' || kind === 'json') {
      const area = el('textarea');
      area.rows = kind === 'multiline' ? 5 : 2;
      area.spellcheck = false;
      area.placeholder = kind === 'list' ? 'one per line' : kind === 'json' ? 'JSON, or plain text' : '';
      area.addEventListener('input', () => {
        area.dataset.touched = 'yes';
      });
      return area;
    }
    const input = el('input');
    input.type = kind === 'number' ? 'number' : 'text';
    input.spellcheck = false;
    input.autocomplete = 'off';
    if (kind === 'number' && typeof prop.minimum === 'number') input.min = String(prop.minimum);
    if (prop.default !== undefined) input.placeholder = `default: ${String(prop.default)}`;
    else if (prop.pattern === undefined && kind === 'text') input.placeholder = '';
    return input;
  }
}
