import { Usage, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';

/** The output items of one scripted turn, as a Responses model emits them. */
export type AgentsTurn = ModelResponse['output'];

/**
 * A scripted `Model` for the Agents SDK: each `getResponse` answers the next turn's items and
 * records the request (its input holds the tool outputs the runner sent back).
 */
export class ScriptedAgentsModel implements Model {
  readonly requests: ModelRequest[] = [];
  #turn = 0;

  constructor(private readonly turns: readonly AgentsTurn[]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const output = this.turns[this.#turn++];
    if (!output) throw new Error(`the script has ${this.turns.length} turns; the model was called once more`);
    return { usage: new Usage(), output, responseId: `resp-${this.#turn}` };
  }

  // biome-ignore lint/correctness/useYield: the runner in these tests never streams
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('the scripted model does not stream');
  }
}

/** A final assistant message. */
export const say = (text: string): AgentsTurn => [
  { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] },
];
