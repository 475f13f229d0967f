import type { JsonSchema, ToolDefinition as ContractTool, ToolInfo } from '../contract/index.js';
import type { SnapshotStore } from '../snapshots/store.js';
import type { ToolContext } from '../workspace/context.js';

export type { JsonSchema, ToolInfo };

/** The context a workspace's tools run with: the workspace layer's, with the snapshot store. */
export type ToolRunContext = ToolContext<SnapshotStore>;

/** A tool as Sandpit's workspace runs it (the contract's definition, with the tool context). */
export type ToolDefinition<Args = any, Result = unknown> = ContractTool<Args, Result, ToolRunContext>;

export function defineTool<Args, Result>(definition: ToolDefinition<Args, Result>): ToolDefinition<Args, Result> {
  return definition;
}
