import { $ } from './dom.js';

/** A side-panel tab, named by its id `tab-<name>` and its pane `pane-<name>`. */
export type TabName = string;

/**
 * The side panel's tabs, read from the page so a panel added there joins them: click, arrow keys
 * between them, Alt+1..n from anywhere, in the order they appear.
 */
export function setUpTabs(): (name: TabName) => void {
  const names = [...document.querySelectorAll<HTMLElement>('.side [role="tab"]')].map((tab) =>
    tab.id.replace(/^tab-/, ''),
  );
  const show = (name: TabName) => {
    for (const other of names) {
      $(`tab-${other}`).setAttribute('aria-selected', String(other === name));
      $(`tab-${other}`).tabIndex = other === name ? 0 : -1;
      $(`pane-${other}`).hidden = other !== name;
    }
  };
  for (const name of names) {
    const tab = $(`tab-${name}`);
    tab.addEventListener('click', () => show(name));
    tab.addEventListener('keydown', (event) => {
      const at = names.indexOf(name);
      const to =
        event.key === 'ArrowRight'
          ? names[(at + 1) % names.length]
          : event.key === 'ArrowLeft'
            ? names[(at + names.length - 1) % names.length]
            : undefined;
      if (!to) return;
      event.preventDefault();
      show(to);
      $(`tab-${to}`).focus();
    });
  }
  document.addEventListener('keydown', (event) => {
    if (!event.altKey || event.ctrlKey || event.metaKey) return;
    const index = Number(event.key) - 1;
    if (Number.isInteger(index) && index >= 0 && index < names.length) {
      event.preventDefault();
      show(names[index]!);
    }
  });
  show(names[0]!);
  return show;
}
