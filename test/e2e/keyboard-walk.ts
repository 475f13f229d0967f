import type { CDPSession, Page } from 'playwright-core';

/** The keys a composite widget documents for moving between its members, after Tab lands on one. */
const WIDGET_KEYS: Record<string, { next: string; previous: string }> = {
  tree: { next: 'ArrowDown', previous: 'ArrowUp' },
  listbox: { next: 'ArrowDown', previous: 'ArrowUp' },
  tablist: { next: 'ArrowRight', previous: 'ArrowLeft' },
};
const MEMBER_ROLES = ['treeitem', 'option', 'tab'];

/** What a keyboard walk over part of the page found. */
export interface WalkResult {
  /** the controls a person could use there, each as `tag#id`, `li[tree path]` or `tag "its text"` */
  wanted: string[];
  /** the wanted controls neither Tab nor the widgets' own keys ever focused */
  missed: string[];
  /** focused elements whose accessible name is empty */
  unnamed: string[];
}

/**
 * Mark every control inside `scopes` a person could use, whether or not the keyboard reaches it:
 * visible, enabled buttons, inputs, selects, textareas, links, frames and editable text, anything
 * with tabindex >= 0, and a widget's members (tree items, options, tabs), which arrows reach. A
 * native control is wanted even with tabindex=-1, since that is how one is made unreachable; the
 * exception is a control inside a tree item or option (the tree's × is the Delete key's twin).
 */
function markControls(page: Page, scopes: string): Promise<string[]> {
  return page.$$eval(
    scopes,
    (roots, memberRoles) => {
      document.querySelectorAll('[data-walk-want]').forEach((n) => n.removeAttribute('data-walk-want'));
      const natives = 'button, input, select, textarea, a[href], iframe, [contenteditable="true"]';
      const wanted: string[] = [];
      for (const root of roots) {
        for (const node of root.querySelectorAll<HTMLElement>(`${natives}, [tabindex], [role]`)) {
          const style = getComputedStyle(node);
          const visible =
            node.getClientRects().length > 0 && style.visibility !== 'hidden' && !node.closest('[hidden], [inert]');
          if (!visible || node.matches(':disabled') || (node as HTMLInputElement).type === 'hidden') continue;
          const member = memberRoles.includes(node.getAttribute('role') ?? '');
          const native = node.matches(natives) && !node.parentElement?.closest('[role="treeitem"], [role="option"]');
          if (!member && !native && node.tabIndex < 0) continue;
          if (!member && !native && !node.hasAttribute('tabindex')) continue;
          node.dataset.walkWant = String(wanted.length);
          // By id, by tree path, or else by what it says, so a failure names the control plainly.
          const text = (node.getAttribute('aria-label') ?? node.textContent ?? '')
            .trim()
            .replace(/\s+/g, ' ')
            .slice(0, 32);
          const where = node.id ? `#${node.id}` : node.dataset.path ? `[${node.dataset.path}]` : ` "${text}"`;
          wanted.push(`${node.tagName.toLowerCase()}${where}`);
        }
      }
      return wanted;
    },
    MEMBER_ROLES,
  );
}

/** The focused element: its mark, the widget it belongs to, and Chromium's accessible name for it. */
async function focused(
  page: Page,
  cdp: CDPSession,
): Promise<{ key: string; want: string | null; widget: string | null; name: string }> {
  const seen = await page.evaluate(() => {
    const node = document.activeElement as HTMLElement | null;
    document.querySelectorAll('[data-walk-now]').forEach((n) => n.removeAttribute('data-walk-now'));
    if (!node || node === document.body) return null;
    node.setAttribute('data-walk-now', '');
    const widget = node.closest<HTMLElement>('[role="tree"], [role="listbox"], [role="tablist"]');
    const member = node.closest('[role="treeitem"], [role="option"], [role="tab"]');
    return {
      key: `${node.tagName.toLowerCase()}#${node.id}[${node.dataset.path ?? node.dataset.id ?? ''}]`,
      want: node.dataset.walkWant ?? null,
      widget:
        widget && member
          ? `${widget.getAttribute('role')}:${widget.id || widget.getAttribute('aria-label') || ''}`
          : null,
    };
  });
  if (!seen) return { key: 'body', want: null, widget: null, name: '' };
  // Chromium's own name computation (aria-labelledby, aria-label, <label>, content, title).
  return { ...seen, name: await accessibleName(cdp) };
}

/**
 * The marked element's name, from Chromium's accessibility tree. The element is reached by a
 * JavaScript handle rather than DOM.getDocument and DOM.querySelector: those turn on the DOM
 * agent, which then reports every change under the nodes it handed out, key after key. When a
 * redraw replaced the marked node meanwhile, the name is the focused element's now.
 */
async function accessibleName(cdp: CDPSession): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { result } = await cdp.send('Runtime.evaluate', {
        expression: "document.querySelector('[data-walk-now]') ?? document.activeElement",
        objectGroup: WALK_OBJECTS,
      });
      if (!result.objectId) throw new Error('keyboardWalk: nothing is focused');
      const { nodes } = await cdp.send('Accessibility.getPartialAXTree', {
        objectId: result.objectId,
        fetchRelatives: false,
      });
      return String(nodes[0]?.name?.value ?? '').trim();
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** The handles accessibleName takes, let go of after each walk. */
const WALK_OBJECTS = 'keyboard-walk';

/**
 * Walk `scopes` with the keyboard alone: Tab from where focus is now, and on landing in a tree,
 * listbox or tablist, its arrow keys both ways until focus stops moving or comes round again.
 * Stops once every wanted control was focused, or after enough Tabs to pass them all twice.
 */
export async function keyboardWalk(page: Page, cdp: CDPSession, scopes: string): Promise<WalkResult> {
  const wanted = await markControls(page, scopes);
  const reached = new Set<string>();
  const unnamed = new Set<string>();
  const walkedWidgets = new Set<string>();
  const note = async () => {
    const now = await focused(page, cdp);
    if (now.want !== null) {
      reached.add(now.want);
      if (now.name === '') unnamed.add(wanted[Number(now.want)]!);
    } else if (now.key !== 'body' && now.name === '') unnamed.add(now.key);
    return now;
  };
  for (let tabs = 0; tabs < wanted.length * 2 + 12 && reached.size < wanted.length; tabs++) {
    await page.keyboard.press('Tab');
    const landed = await note();
    // Only a widget inside the walked part: a tablist's arrows outside it would switch panes.
    if (!landed.widget || landed.want === null || walkedWidgets.has(landed.widget)) continue;
    walkedWidgets.add(landed.widget);
    const keys = WIDGET_KEYS[landed.widget.split(':')[0]!]!;
    let at = landed.key;
    for (const key of [keys.next, keys.previous]) {
      // Each way from where focus stands: an end that stops, or a tablist that wraps, ends it.
      const visited = new Set([at]);
      for (let step = 0; step < wanted.length + 1; step++) {
        await page.keyboard.press(key);
        const now = await note();
        if (visited.has(now.key)) break;
        visited.add(now.key);
        at = now.key;
      }
    }
  }
  await cdp.send('Runtime.releaseObjectGroup', { objectGroup: WALK_OBJECTS });
  const missed = wanted.filter((_, i) => !reached.has(String(i)));
  return { wanted, missed, unnamed: [...unnamed] };
}
