import type { JsonSchema } from '../../tools/define.js';

/** A tool manifest (seed 003): `tools/<name>/<name>.json`. */
export interface ToolManifest {
  name?: string;
  description: string;
  parameters?: JsonSchema;
  command: string[];
  input?: 'stdin_json' | 'args_json' | 'env';
  output?: 'text' | 'json';
  cwd?: 'workspace' | 'tool_dir';
  env?: Record<string, string>;
  /** 0 = the engine default, -1 = no limit */
  timeout_seconds?: number;
  background?: boolean;
  permission?: 'allow' | 'ask';
  attach_outputs?: boolean;
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
