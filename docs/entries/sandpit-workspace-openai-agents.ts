/**
 * The OpenAI Agents SDK adapter: a workspace's tools as function tools, and its apply_patch and
 * shell as the SDK's Editor and Shell. Needs `@openai/agents`, an optional peer dependency.
 * @module sandpit-workspace/openai-agents
 */
export * from '../../src/adapters/openai-agents/index.js';
