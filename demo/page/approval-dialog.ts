import type { ApprovalRequest } from '../../src/index.js';
import { $, el } from './dom.js';

const VERBS: Record<ApprovalRequest['action'], { title: string; verb: string }> = {
  delete: { title: 'Allow this delete?', verb: 'delete' },
  overwrite: { title: 'Allow this change?', verb: 'change' },
  move: { title: 'Allow this move?', verb: 'move or rename' },
  run: { title: 'Allow this tool to run?', verb: 'run' },
};

/**
 * The page's approver: a modal `<dialog>` naming the tool, what it would do and the paths (or a
 * run's arguments), with Allow and Deny. Escape and closing it deny; focus goes into it (on
 * Deny, the safe answer) and back to where it was. Requests that arrive together (an agent's
 * parallel calls) are asked one after another.
 */
export class ApprovalDialog {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly dialog = $<HTMLDialogElement>('approval');
  /** where the person was: a clicked button may be disabled (and so blurred) while its call runs */
  private last: HTMLElement | null = null;

  constructor() {
    document.addEventListener('focusin', (event) => {
      if (event.target instanceof HTMLElement && !this.dialog.contains(event.target)) this.last = event.target;
    });
  }

  /** Ask the person; resolves true only for Allow. */
  ask(request: ApprovalRequest): Promise<boolean> {
    const answer = this.queue.then(() => this.show(request));
    this.queue = answer.catch(() => false);
    return answer;
  }

  /** Deny what is being asked now (the workspace it was asked for is closing). */
  denyOpen(): void {
    if (this.dialog.open) this.dialog.close('deny');
  }

  private show(request: ApprovalRequest): Promise<boolean> {
    const words = VERBS[request.action] ?? VERBS.overwrite;
    $('approval-title').textContent = words.title;
    const count = request.paths.length;
    $('approval-what').textContent =
      request.action === 'run'
        ? `The tool ${request.tool} asks before it runs, with these arguments:`
        : `${request.tool} asks to ${words.verb} ${count === 1 ? 'this path' : `these ${count} paths`}:`;
    $('approval-paths').replaceChildren(...(request.action === 'run' ? [] : request.paths.map((p) => el('li', p))));
    const args = $('approval-args');
    args.hidden = request.action !== 'run';
    args.textContent = request.action === 'run' ? JSON.stringify(request.args ?? {}, null, 2) : '';
    const active = document.activeElement as HTMLElement | null;
    const before = active && active !== document.body ? active : this.last;
    return new Promise<boolean>((resolve) => {
      const done = () => {
        this.dialog.removeEventListener('close', done);
        giveFocusBack(before);
        resolve(this.dialog.returnValue === 'allow');
      };
      this.dialog.returnValue = '';
      this.dialog.addEventListener('close', done);
      this.dialog.showModal();
      $<HTMLButtonElement>('approval-deny').focus();
    });
  }
}

/**
 * Focus goes back where the person was. A control disabled while its call runs (Run) cannot take
 * it yet: its panel's tab holds it meanwhile, and the control gets it back once enabled, unless
 * the person moved on.
 */
function giveFocusBack(target: HTMLElement | null): void {
  if (!target?.isConnected) return;
  if (!(target as HTMLButtonElement).disabled) return void target.focus();
  const panel = target.closest('[role="tabpanel"]')?.getAttribute('aria-labelledby');
  const stand = panel ? document.getElementById(panel) : null;
  stand?.focus();
  const watch = new MutationObserver(() => {
    if ((target as HTMLButtonElement).disabled) return;
    watch.disconnect();
    if (document.activeElement === stand || document.activeElement === document.body) target.focus();
  });
  watch.observe(target, { attributes: true, attributeFilter: ['disabled'] });
  setTimeout(() => watch.disconnect(), 120_000);
}
