/** The one-line reminder printed after a usage error. */
export const USAGE =
  'usage: sandpit call TOOL [JSON] --root DIR | sandpit replay FILE|- [--backend memory|node] [--root DIR] [--from DIR] | sandpit tools | sandpit doctor --tools DIR | sandpit doctor --root DIR [--repair] | sandpit mcp [--root DIR] [--toolset NAME] | sandpit agent --root DIR --endpoint URL --model NAME "task" | sandpit clone URL DIR | sandpit push --root DIR --remote URL --branch B | sandpit review --root DIR [--reject ID --reason TEXT] | sandpit blame --root DIR PATH | sandpit --help';

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
          [--format openai|openai-responses|anthropic|mcp] [--strict]
      List the tools as JSON: name and description (and input_schema with --schemas),
      with the manifest tools of DIR when given. --format prints them as that API's
      tool list; --strict gives OpenAI strict-mode schemas (optional arguments
      nullable; the workspace reads null as absent).
  sandpit doctor --tools DIR
      Check every tool manifest in DIR (DIR/<name>/<name>.json) and print OK or the
      exact problem for each; exit 1 when any manifest is broken.
  sandpit doctor --root DIR [--repair]
      Check the folder's snapshot history; with --repair, reset a damaged branch to
      the newest intact snapshot (from the reflog or the object store).
  sandpit fork --root DIR NAME
      Fork the folder's workspace (copy-on-write, kept in .sandpit/forks).
  sandpit merge --root DIR FORK [--dry-run] | --list | --drop FORK
      Merge a fork back (three-way, all or nothing, one undoable change; conflicts
      change nothing and exit 1 with PATCH_CONFLICT), list the forks, or drop one.
  sandpit review --root DIR [--change ID] [--path P] [--status pending|accepted|rejected]
  sandpit review --root DIR --accept ID[,ID] | --reject ID[,ID] --reason TEXT [--actor NAME]
      List the hunks of the folder's recorded changes (any process's: an MCP server,
      an agent run; kept in .sandpit/review), accept hunks, or reject them: each
      rejected hunk is reverted as one new change and the next agent run on the
      folder is told the file, the lines and the reason. Prints the envelope.
  sandpit blame --root DIR PATH
      Who last wrote each line of PATH: line ranges with the change, tool, actor
      and tool call (null where no recorded change did). Prints the envelope.

  sandpit mcp [--root DIR] [--toolset NAME] [--tools DIR] [--artifacts DIR] [--snapshots MODE]
          [--http [HOST:]PORT --auth-token-env NAME | --no-auth] [--max-message-bytes N] [--git]
          [--max-sessions N] [--replay-bytes N] [--replay-total-bytes N]
      Serve the folder's tools to an MCP client over stdin/stdout, or with --http
      over Streamable HTTP at http://HOST:PORT/mcp (HOST default 127.0.0.1; other
      Host and Origin headers are refused). --http needs a token: --auth-token-env
      NAME requires "Authorization: Bearer <the value of NAME>" (401 without it);
      without one, --http refuses to start unless --no-auth says that every user and
      process that can reach the port may use the tools. Each result carries the result
      object as structuredContent and the envelope as text (isError when it is
      not ok). MODE is call (default: one snapshot per change), batch, manual or off.
      A stdio message over N bytes (default 64 MiB) is answered with a JSON-RPC
      error; the server stays up. Over HTTP, --max-sessions N (default 256) caps the
      sessions: one more ends the least recently used idle one, whose next request
      gets 404 "Session not found"; idle sessions end after 30 minutes. Each session
      keeps its SSE messages for clients resuming with Last-Event-ID, oldest dropped
      first past --replay-bytes N (default 32 MiB) per session and
      --replay-total-bytes N (default 128 MiB) for all sessions together.
      Without --root it serves the client's first file:// root (roots/list) and
      follows its changes; with --root the client's roots are ignored.
      A root (given or the client's) that is /, the home folder or a system folder
      is refused: give the project's absolute path, or add --allow-broad-root.
      --git adds git_clone, git_push and git_pull (canonical toolset) with the token
      in SANDPIT_GIT_TOKEN; a call with a progressToken hears each git phase.

  sandpit agent --root DIR --endpoint URL --model NAME [--toolset NAME] "TASK"
      Let a model do TASK on the folder with the toolset's tools, printing its text,
      each tool call and each result as they happen, and exit when it is done.
      URL is an OpenAI-compatible API base (http://127.0.0.1:11434/v1 for Ollama,
      http://127.0.0.1:8080/v1 for llama.cpp) or Anthropic's (--api anthropic).
      The API key comes from SANDPIT_API_KEY (or OPENAI_API_KEY / ANTHROPIC_API_KEY).
      --max-steps N (25), --token-budget N, --max-tokens N (per answer),
      --transcript FILE (the run's calls as JSONL for sandpit replay),
      --instructions TEXT (added to the system prompt), --json (events as JSONL),
      --vision (the model sees images tools attach), --max-background-wait MIN
      (after answering, stay up to MIN minutes for background tasks; a wake note
      or a task's exit starts the next turn).
      Exit 0 when the model answered, 1 on a model error (unreachable, 401,
      rate limited, no tool calling), 3 at the step limit or token budget, 130 on Ctrl-C.

  sandpit clone URL DIR [--ref R] [--depth N] [--progress]
      Clone a git repository over http(s) into the empty folder DIR (made if missing);
      the clone becomes the workspace's first snapshot. Prints the envelope.
  sandpit push --root DIR [--remote URL] [--branch B] [--squash] [--message M]
      Push the workspace's snapshots (or, with --squash, one commit of its files)
      to branch B; URL and B default to where DIR was cloned from. A branch that
      moved on is refused (STALE_FILE). sandpit pull --root DIR takes the same
      --remote and --branch and fast-forwards or merges, or lists the conflicts.
      The token comes from SANDPIT_GIT_TOKEN (or the variable --token-env names).
      Exit 0 when the envelope is ok, 1 when it is not.

Options
  --root DIR        a real folder; tools read and write it (the node backend)
  --backend NAME    memory or node; default node when --root is given, else memory
  --from DIR        seed the memory backend with a copy of DIR: every file, folder,
                    dot-file and .git, except node_modules and .sandpit folders and
                    symlinks with absolute targets; DIR itself is never changed
  --tools DIR       load manifest tools from DIR (with --root: they run as processes)
  --toolset NAME    canonical (default), file_manager, fs_process, cowork, or a
                    vendor's native tools: openai (apply_patch, shell) or
                    anthropic (str_replace_based_edit_tool, bash): the tool
                    surface for call, replay and mcp
  --artifacts DIR   cowork's artifact folder (relative to the workspace): changes
                    there need no approval
  --sandbox MODE    os or none: where run_command and manifest tools run (with
                    --root). os (default where bubblewrap works): in bubblewrap,
                    the folder at /workspace, no network, PATH/HOME/LANG/TERM
                    only; asked for and missing, each command is NOT_SUPPORTED
  --approve all     allow every confirmation (deletes, cowork changes outside the
                    artifact folder, permission: "ask" tools) without asking; by
                    default call and agent ask y/N on a terminal, and with no
                    terminal those confirmations are refused; under mcp the
                    client's person is asked by elicitation when it supports it
  --pretty          indent the JSON output
  -h, --help        this text
  -v, --version     the version

Exit status
  0  every call or line was processed, whatever the envelopes say
  2  the command line is unusable (unknown command or option, missing --root,
     a folder that does not exist, an unknown backend, an unreadable file)
`;
