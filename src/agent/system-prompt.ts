import type { ToolInfo } from '../tools/schema/define.js';

/** The first sentence of a description: enough to choose a tool; the full text travels with its schema. */
function firstSentence(text: string): string {
  const match = /^(.+?[.!?])(\s|$)/s.exec(text.trim());
  const sentence = (match?.[1] ?? text.trim()).replace(/\s+/g, ' ');
  return sentence.length > 200 ? `${sentence.slice(0, 200)}…` : sentence;
}

/**
 * A short system prompt that teaches the active toolset: the workspace rules, one line per tool,
 * how failures come back, and when to stop. Advice is given only for tools the set really has.
 */
export function systemPrompt(tools: readonly ToolInfo[], extra?: string): string {
  const has = (name: string) => tools.some((t) => t.name === name);
  const lines = [
    'You are a coding agent working in a sandboxed workspace through tools. Do the task with the tools, then answer with a short summary and no tool calls.',
    '',
    'Rules:',
    '- Paths are relative to the workspace root and use forward slashes; you cannot reach anything outside it.',
    '- Each call returns a JSON envelope: {"ok":true,"result":...} or {"ok":false,"error":{"code","message","hint"}}. When a call fails, read the code and the hint, fix the call, and try again; do not repeat a failing call unchanged.',
    '- Look before you change: read a file before editing it, and keep edits small and exact.',
    '- Calls you make in the same turn run at once; calls on the same file are applied one after another.',
  ];
  if (has('edit_file'))
    lines.push(
      '- edit_file needs old_text that occurs exactly once; on AMBIGUOUS_MATCH include more surrounding lines, or set replace_all.',
    );
  if (has('apply_patch'))
    lines.push(
      '- apply_patch takes a "*** Begin Patch" ... "*** End Patch" patch for changes across several places or files.',
    );
  const run = tools.find((t) => t.name === 'run_command');
  if (run && /bash command line/.test(run.description)) {
    // The browser's built-in shell: say what it has, since the model would otherwise assume a full Linux box.
    const commands = /Commands: ([^.;]+)/.exec(run.description)?.[1];
    lines.push(
      '- run_command takes a bash command line (pipes, redirections, globs, $VARS, $(...), if/for/while) in a built-in shell whose `/` is the workspace root; ' +
        `it has only these commands: ${commands ?? 'the common text and file tools'}; \`node FILE.js\` runs plain JavaScript. Its writes are one undoable change.`,
    );
  } else if (run)
    lines.push(
      '- run_command runs one program without a shell; if it answers NOT_SUPPORTED, carry on without running anything.',
    );
  if (has('undo')) lines.push('- Every change is a snapshot; undo reverts your last change if it went wrong.');
  lines.push('', 'Tools:', ...tools.map((t) => `- ${t.name}: ${firstSentence(t.description)}`));
  if (extra?.trim()) lines.push('', extra.trim());
  return lines.join('\n');
}
