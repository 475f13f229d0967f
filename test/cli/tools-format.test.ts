import { beforeAll, describe, expect, it } from 'vitest';
import { toolset } from '../../src/toolsets/index.js';
import { buildCli, runMain } from './built-cli.js';

beforeAll(() => buildCli());

// The built CLI's main in this process: what `sandpit tools` prints, without a Node start per call.
const tools = (...args: string[]) => runMain(['tools', ...args]);

describe('sandpit tools --format', () => {
  it("prints each API's own tool list for the named toolset", async () => {
    const chat = JSON.parse((await tools('--format', 'openai', '--toolset', 'file_manager')).stdout);
    expect(chat).toEqual(toolset('file_manager').toOpenAI());
    const responses = JSON.parse((await tools('--format', 'openai-responses', '--strict')).stdout);
    expect(responses.find((t: any) => t.name === 'read_file')).toMatchObject({
      type: 'function',
      strict: true,
      parameters: { additionalProperties: false },
    });
    const anthropic = JSON.parse((await tools('--format', 'anthropic', '--toolset', 'cowork')).stdout);
    expect(anthropic.map((t: any) => t.name)).toEqual(toolset('cowork').tools.map((t) => t.name));
    expect(anthropic[0].input_schema.type).toBe('object');
    const mcp = JSON.parse((await tools('--format', 'mcp')).stdout);
    expect(mcp.find((t: any) => t.name === 'run_command').inputSchema.type).toBe('object');
  });

  it('refuses an unknown format, and --strict where it does not apply', async () => {
    const unknown = await tools('--format', 'gemini');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--format takes openai, openai-responses, anthropic, mcp');
    expect((await tools('--format', 'anthropic', '--strict')).code).toBe(2);
  });
});
