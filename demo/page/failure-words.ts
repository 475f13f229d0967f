/** What a failed call tells the page: the envelope's error, or an Error's message. */
export interface Failure {
  code?: string;
  message: string;
}

/**
 * The next step for each error code, in the page's own words: what a person can do from here.
 * A tool that fails changes nothing, so each of these starts from the workspace as it was.
 */
const NEXT_STEP: Record<string, string> = {
  NOT_FOUND: 'It may have been moved or deleted meanwhile: the file list shows what is there now.',
  ALREADY_EXISTS: 'Pick another name, or delete or rename the one that is there first.',
  STALE_FILE: 'It changed meanwhile: look at it again (Review shows what changed), then try again.',
  CONFIRMATION_DENIED: 'It was not allowed when asked; do it again and choose Allow to go ahead.',
  PERMISSION_DENIED: "This workspace refuses it; the header's Tools setting says what it allows.",
  OUTSIDE_WORKSPACE: 'Use a path inside the workspace, such as src/app.ts.',
  INVALID_ARGUMENTS: 'Check what was entered and try again.',
  NOT_A_FILE: 'That path is a folder: pick a file in it.',
  NOT_A_DIRECTORY: 'That path is a file, so nothing can go inside it: pick a folder.',
  DIRECTORY_NOT_EMPTY: 'Empty the folder first, or delete it with everything in it.',
  TOO_LARGE: 'It is over the size the page takes: pick a smaller file.',
  QUOTA_EXCEEDED: "The browser's storage is full: delete files, or Export them and start a new workspace.",
  NOT_SUPPORTED: 'This storage cannot do that: pick another in Storage.',
  TIMEOUT: 'It took too long: try again.',
  IO_ERROR: 'The storage did not answer as expected: try again.',
};
const NOTHING_CHANGED = 'Nothing was changed: try again.';

/** What to do next after `failure`, in a person's words. */
export function nextStep(failure: Failure): string {
  return (failure.code && NEXT_STEP[failure.code]) || NOTHING_CHANGED;
}

/** "Could not undo: <why>. <what to do next>": a toast's whole text for a failure. */
export function failureText(what: string, failure: Failure): string {
  // Undo past the oldest step is no failure of anything: it is the end of the history, said so.
  if (failure.code === 'NOT_FOUND' && /nothing to undo/.test(failure.message)) {
    return 'Nothing more to undo: this is the oldest step kept. To go to another, pick it in the timeline and Restore it.';
  }
  const why = failure.message.replace(/[.\s]+$/, '');
  return `${what}: ${why}. ${nextStep(failure)}`;
}
