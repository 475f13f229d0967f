/** The one-line reminder printed after a usage error. */
export const USAGE = 'usage: sandpit call TOOL [JSON] --root DIR | sandpit replay FILE|- [--backend memory|node] [--root DIR] [--from DIR] | sandpit tools | sandpit doctor --tools DIR | sandpit mcp --root DIR [--toolset NAME] | sandpit --help';

/** The full `sandpit --help` text. */
export const HELP = `sandpit: one tool contract over a workspace folder, for LLM agents and their tests

Commands
  sandpit call TOOL [JSON] --root DIR [--tools DIR]
      Run one tool on the folder DIR and print its envelope as one line of JSON:
      {"ok":true,"tool":...,"result":...} or {"ok":false,"tool":...,"error":{"code":...}}.
      JSON is the tool's arguments (default {}). With --from DIR instead of --root,
      the tool runs on a throwaway in-memory copy of DIR.
  sandpit replay FILE|- [--backend memory|node] [--root DIR] [--from DIR]
      Read one {"tool": ..., "args": ...} object per line from FILE (or stdin for -)
      and print one envelope per line, in order, all on one workspace. Blank lines
      are skipped; a line that is not JSON or has no "tool" prints an
      INVALID_ARGUMENTS envelope and the replay continues.
  sandpit tools [--schemas] [--tools DIR] [--toolset NAME]
      List the tools as JSON: name and description (and input_schema with --schemas),
      with the manifest tools of DIR when given.
  sandpit doctor --tools DIR
      Check every tool manifest in DIR (DIR/<name>/<name>.json) and print OK or the
      exact problem for each; exit 1 when any manifest is broken.

  sandpit mcp --root DIR [--toolset NAME] [--tools DIR] [--artifacts DIR] [--snapshots MODE]
      Serve the folder's tools to an MCP client over stdin/stdout; each call's
      envelope is the tool result text (isError when it is not ok). MODE is
      call (default: one snapshot per change), batch, manual or off.

Options
  --root DIR        a real folder; tools read and write it (the node backend)
  --backend NAME    memory or node; default node when --root is given, else memory
  --from DIR        seed the memory backend with a copy of DIR: every file, folder,
                    dot-file and .git, except node_modules and .sandpit folders and
                    symlinks with absolute targets; DIR itself is never changed
  --tools DIR       load manifest tools from DIR (with --root: they run as processes)
  --toolset NAME    canonical (default), file_manager, fs_process or cowork: the
                    tool surface for call, replay and mcp
  --artifacts DIR   cowork's artifact folder (relative to the workspace): changes
                    there need no approval
  --pretty          indent the JSON output
  -h, --help        this text
  -v, --version     the version

Exit status
  0  every call or line was processed, whatever the envelopes say
  2  the command line is unusable (unknown command or option, missing --root,
     a folder that does not exist, an unknown backend, an unreadable file)
`;
