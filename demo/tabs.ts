import { $ } from './dom.js';

export type TabName = 'console' | 'review' | 'replay';
const NAMES: TabName[] = ['console', 'review', 'replay'];

/** The side panel's tabs: click, arrow keys between them, Alt+1..3 from anywhere. */
export function setUpTabs(): (name: TabName) => void {
  const show = (name: TabName) => {
    for (const other of NAMES) {
      $(`tab-${other}`).setAttribute('aria-selected', String(other === name));
      $(`tab-${other}`).tabIndex = other === name ? 0 : -1;
      $(`pane-${other}`).hidden = other !== name;
    }
  };
  for (const name of NAMES) {
    const tab = $(`tab-${name}`);
    tab.addEventListener('click', () => show(name));
    tab.addEventListener('keydown', (event) => {
      const at = NAMES.indexOf(name);
      const to = event.key === 'ArrowRight' ? NAMES[(at + 1) % NAMES.length] : event.key === 'ArrowLeft' ? NAMES[(at + NAMES.length - 1) % NAMES.length] : undefined;
      if (!to) return;
      event.preventDefault();
      show(to);
      $(`tab-${to}`).focus();
    });
  }
  document.addEventListener('keydown', (event) => {
    if (!event.altKey || event.ctrlKey || event.metaKey) return;
    const index = ['1', '2', '3'].indexOf(event.key);
    if (index >= 0) {
      event.preventDefault();
      show(NAMES[index]!);
    }
  });
  show('console');
  return show;
}
