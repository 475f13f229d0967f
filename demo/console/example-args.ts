import type { JsonSchema, ToolInfo } from '../../src/index.js';

// Values that make a first run succeed on the sample files, keyed by argument name.
const BY_NAME: Record<string, unknown> = {
  path: 'src/greet.ts',
  from: 'notes/todo.md',
  to: 'notes/done.md',
  content: '// written from the demo page\n',
  old_text: 'Hello',
  new_text: 'Howdy',
  expected: 'Hello',
  command: 'ls',
  message: 'checkpoint from the demo',
};

const BY_TOOL: Record<string, Record<string, unknown>> = {
  glob: { pattern: '**/*.ts' },
  search_files: { pattern: 'greet' },
  create_directory: { path: 'docs' },
  run_command: { command: "grep -rn greet . | head -5 && find . -name '*.ts' | wc -l" },
  append_file: { path: 'notes/todo.md', content: '- [ ] try the demo\n' },
  apply_patch: {
    patch: [
      '*** Begin Patch',
      '*** Update File: src/greet.ts',
      '@@',
      '-  return `Hello, ${name}!`;',
      '+  return `Hello there, ${name}!`;',
      '*** End Patch',
      '',
    ].join('\n'),
  },
};

function exampleFor(schema: JsonSchema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return '';
  }
}

/**
 * Arguments to start from for a tool: its required properties, filled with values that work
 * on the sample project where a name is recognised, and a type-shaped placeholder otherwise.
 * `path` overrides the example path, so clicking a file targets it.
 */
export function exampleArgs(tool: ToolInfo, path?: string): Record<string, unknown> {
  const properties = tool.input_schema.properties ?? {};
  const args: Record<string, unknown> = {};
  for (const name of tool.input_schema.required ?? []) {
    const preset = BY_TOOL[tool.name]?.[name] ?? BY_NAME[name];
    args[name] = preset !== undefined ? preset : exampleFor(properties[name] ?? {});
  }
  if (path !== undefined && 'path' in properties) args.path = path;
  return args;
}
