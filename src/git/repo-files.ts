import { ToolError } from '../contract/index.js';

/** The `[core]` section real git's init writes; `symlinks = false` only where links cannot be made. */
export function coreConfig(abilities: { filemode: boolean; symlinks: boolean } = { filemode: true, symlinks: true }) {
  return (
    `[core]\n\trepositoryformatversion = 0\n\tfilemode = ${abilities.filemode}\n\tbare = false\n\tlogallrefupdates = true\n` +
    (abilities.symlinks ? '' : '\tsymlinks = false\n')
  );
}

/** The description file real git's init writes. */
export const REPO_DESCRIPTION = "Unnamed repository; edit this file 'description' to name the repository.\n";

/** The info/exclude file real git's init writes. */
export const REPO_EXCLUDE =
  "# git ls-files --others --exclude-from=.git/info/exclude\n# Lines that start with '#' are comments.\n" +
  '# For a project mostly in C, the following would be a good set of\n# exclude patterns (uncomment them if you want to use them):\n# *.[oa]\n# *~\n';

/**
 * A value as a config file holds it: backslashes and quotes escaped, quoted when blanks at
 * either end or a comment sign would be lost. A line break or NUL cannot be held: refused.
 */
export function configValue(value: string, what: string): string {
  if (/[\n\r\0]/.test(value))
    throw new ToolError('INVALID_ARGUMENTS', `${what} holds a line break or NUL, which git's config cannot hold`, {
      hint: `Give ${what} on one line.`,
    });
  const escaped = value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\t/g, '\\t');
  return /^\s|\s$|[;#]/.test(value) ? `"${escaped}"` : escaped;
}
