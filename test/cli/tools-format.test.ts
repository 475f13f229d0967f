import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { toolset } from '../../src/toolsets/index.js';
import { buildCli, cliPath } from './built-cli.js';

beforeAll(() => buildCli(), 180_000);

const tools = (...args: string[]) => spawnSync(process.execPath, [cliPath, 'tools', ...args], { encoding: 'utf8' });

describe('sandpit tools --format', () => {
  it("prints each API's own tool list for the named toolset", () => {
    const chat = JSON.parse(tools('--format', 'openai', '--toolset', 'file_manager').stdout);
    expect(chat).toEqual(toolset('file_manager').toOpenAI());
    const responses = JSON.parse(tools('--format', 'openai-responses', '--strict').stdout);
    expect(responses.find((t: any) => t.name === 'read_file')).toMatchObject({
      type: 'function',
      strict: true,
      parameters: { additionalProperties: false },
    });
    const anthropic = JSON.parse(tools('--format', 'anthropic', '--toolset', 'cowork').stdout);
    expect(anthropic.map((t: any) => t.name)).toEqual(toolset('cowork').tools.map((t) => t.name));
    expect(anthropic[0].input_schema.type).toBe('object');
    const mcp = JSON.parse(tools('--format', 'mcp').stdout);
    expect(mcp.find((t: any) => t.name === 'run_command').inputSchema.type).toBe('object');
  }, 60_000);

  it('refuses an unknown format, and --strict where it does not apply', () => {
    const unknown = tools('--format', 'gemini');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('--format takes openai, openai-responses, anthropic, mcp');
    expect(tools('--format', 'anthropic', '--strict').status).toBe(2);
  }, 60_000);
});
