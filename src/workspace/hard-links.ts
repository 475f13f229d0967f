import { ToolError } from '../contract/index.js';

/**
 * A file with several hard links may be the same file as one outside the workspace (its other
 * name cannot be seen from here), so reads refuse it unless the policy allows hard links.
 */
export function isRefusedHardLink(nlink: number | undefined, allowHardLinks: boolean): boolean {
  return (nlink ?? 1) > 1 && !allowHardLinks;
}

/** What a read says about such a file: read_file, file_bytes and a search named at the file say the same. */
export function hardLinkRefusal(shown: string, nlink: number): ToolError {
  return new ToolError(
    'OUTSIDE_WORKSPACE',
    `'${shown}' has ${nlink} hard links, so it may be a file outside the workspace; it is not read`,
    {
      hint: 'Copy the file into the workspace (a new file has one link), or create the workspace with the allowHardLinks policy.',
    },
  );
}

/** The reason a walk gives for such a file in its list of what it skipped. */
export function hardLinkSkipReason(nlink: number): string {
  return `OUTSIDE_WORKSPACE: it has ${nlink} hard links, so it may be a file outside the workspace; it is not read`;
}
