import type { JsonSchema } from '../../tools/schema/define.js';

/** A tool manifest (seed 003): `tools/<name>/<name>.json`. */
export interface ToolManifest {
  /** the tool's name (default: the manifest's file name) */
  name?: string;
  /** what the model reads */
  description: string;
  /** the JSON Schema of its arguments */
  parameters?: JsonSchema;
  /** the program and its arguments; `${dir}`, `${workspace}`, `${home}`, `${scratch}` and `${output_dir}` are filled in */
  command: string[];
  /** how the arguments reach it: JSON on stdin (default), JSON as the last argument, or one environment variable each */
  input?: 'stdin_json' | 'args_json' | 'env';
  /** how its stdout is read: as text (default) or as a JSON result */
  output?: 'text' | 'json';
  /** where it runs: the workspace's current folder (default) or the manifest's own folder */
  cwd?: 'workspace' | 'tool_dir';
  /** extra environment variables (placeholders filled in as in `command`) */
  env?: Record<string, string>;
  /** 0 = the engine default, -1 = no limit */
  timeout_seconds?: number;
  /** start it as a background task that returns a task_id */
  background?: boolean;
  /** `ask` sends each call to the workspace's confirm policy first */
  permission?: 'allow' | 'ask';
  /** files it writes to its output folder are attached to the result */
  attach_outputs?: boolean;
  /** the platforms it loads on (default: all) */
  platforms?: Array<'windows' | 'linux' | 'darwin'>;
}

/** Lowercase letters, digits and `_`, starting with a letter. */
export const TOOL_NAME_PATTERN = '^[a-z][a-z0-9_]{0,63}$';

/** The schema every manifest is checked against before it is loaded; problems name the field. */
export const manifestSchema: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', pattern: TOOL_NAME_PATTERN },
    description: { type: 'string', minLength: 1 },
    parameters: { type: 'object' },
    command: { type: 'array', items: { type: 'string' }, minItems: 1 },
    input: { type: 'string', enum: ['stdin_json', 'args_json', 'env'] },
    output: { type: 'string', enum: ['text', 'json'] },
    cwd: { type: 'string', enum: ['workspace', 'tool_dir'] },
    env: { type: 'object', additionalProperties: { type: 'string' } },
    timeout_seconds: { type: 'number' },
    background: { type: 'boolean' },
    permission: { type: 'string', enum: ['allow', 'ask'] },
    attach_outputs: { type: 'boolean' },
    platforms: { type: 'array', items: { type: 'string', enum: ['windows', 'linux', 'darwin'] }, minItems: 1 },
  },
  required: ['description', 'command'],
  additionalProperties: false,
};

/** This machine's platform in the manifest's words. */
export function currentPlatform(): string {
  return process.platform === 'win32' ? 'windows' : process.platform;
}
