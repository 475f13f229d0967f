import { FILE_MANAGER_DESCRIPTION } from './file-manager-text.js';

/**
 * A toolset's long guidance for the model, by name ('' when its descriptions say it all). Apart
 * from the toolsets themselves, so an MCP server's early initialize answer can send it before
 * any tool has loaded; an unknown name has none.
 */
export function toolsetInstructions(name: string): string {
  return name === 'file_manager' ? FILE_MANAGER_DESCRIPTION : '';
}
