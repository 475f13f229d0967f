import { el } from '../page/dom.js';
import type { PackageChange } from './package-summary.js';

const count = (n: number, word: string) => `${n} ${word}`;

/**
 * A change's packages as a person reads them: "added react 19.3.1", "changed a 1.0.0 → 2.0.0",
 * with the node_modules files it stands for counted, not listed.
 */
export function packageSummaryView(changes: PackageChange[], installedFiles: number): HTMLElement {
  const box = el('section', undefined, 'package-summary');
  box.id = 'package-summary';
  const tally = (['added', 'changed', 'removed'] as const)
    .map((kind) => [kind, changes.filter((c) => c.kind === kind).length] as const)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`);
  box.append(el('h3', `Packages: ${tally.join(', ') || 'no version changed'}`, 'package-summary-title'));
  const list = el('ul', undefined, 'package-list');
  for (const change of changes) {
    const item = el('li', undefined, `package ${change.kind}`);
    item.dataset.package = change.name;
    item.dataset.kind = change.kind;
    const versions = change.kind === 'changed' ? `${change.from} → ${change.to}` : (change.to ?? change.from ?? '');
    const nested = change.location !== `node_modules/${change.name}` ? ` (in ${change.location})` : '';
    item.textContent = `${change.kind} ${change.name} ${versions}${nested}`;
    list.append(item);
  }
  box.append(list);
  if (installedFiles > 0)
    box.append(
      el(
        'p',
        `${count(installedFiles, installedFiles === 1 ? 'file' : 'files')} under node_modules, not shown file by file.`,
        'muted',
      ),
    );
  return box;
}
