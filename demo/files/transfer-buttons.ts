import { $, toast } from '../page/dom.js';
import { failureText } from '../page/failure-words.js';
import type { Session } from '../page/session.js';
import { droppedFiles, exportZip, importFiles, type PickedFile } from './transfer.js';

/** The page's ways in and out: Import folder, a folder dropped on the Files panel, Export zip. */
export function wireTransfers(session: Session): void {
  const importInput = $<HTMLInputElement>('import-input');
  // Real buttons open the hidden file pickers, so both are reachable and named for the keyboard.
  $('import-folder').addEventListener('click', () => importInput.click());
  $('replay-open').addEventListener('click', () => $<HTMLInputElement>('replay-file').click());
  importInput.addEventListener('change', async () => {
    const files = [...(importInput.files ?? [])].map(
      (file): PickedFile => ({ path: file.webkitRelativePath || file.name, file }),
    );
    importInput.value = '';
    if (files.length) await importFiles(session, files);
  });
  const filesPanel = $('files-panel');
  filesPanel.addEventListener('dragover', (event) => {
    event.preventDefault();
    filesPanel.classList.add('drop-target');
  });
  filesPanel.addEventListener('dragleave', (event) => {
    if (!filesPanel.contains(event.relatedTarget as Node | null)) filesPanel.classList.remove('drop-target');
  });
  filesPanel.addEventListener('drop', async (event) => {
    event.preventDefault();
    filesPanel.classList.remove('drop-target');
    if (!event.dataTransfer) return;
    const files = await droppedFiles(event.dataTransfer);
    if (files.length) await importFiles(session, files);
  });
  $('export').addEventListener(
    'click',
    () =>
      void exportZip(session, session.choice.name).catch((error: Error) =>
        toast(failureText('Could not export the workspace', error), 'error'),
      ),
  );
}
