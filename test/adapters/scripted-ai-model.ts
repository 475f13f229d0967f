import { MockLanguageModelV4 } from 'ai/test';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;

/** One scripted model turn: tool calls (name and input), or a final text. */
export type ScriptedTurn = { calls: Array<{ name: string; input: unknown }> } | { text: string };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/**
 * The AI SDK's own mock language model answering a fixed script, one turn per model call; it
 * records each call's prompt (`doGenerateCalls`) so a test can read what the model was sent.
 */
export function scriptedLanguageModel(turns: readonly ScriptedTurn[]): MockLanguageModelV4 {
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async (): Promise<GenerateResult> => {
      const turn = turns[step];
      if (!turn) throw new Error(`the script has ${turns.length} turns; the model was called a ${step + 1}th time`);
      const at = step++;
      if ('text' in turn)
        return {
          content: [{ type: 'text', text: turn.text }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      return {
        content: turn.calls.map((c, i) => ({
          type: 'tool-call' as const,
          toolCallId: `call-${at}-${i}`,
          toolName: c.name,
          input: JSON.stringify(c.input),
        })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}
