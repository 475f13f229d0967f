/** Office and PDF files: text tools refuse them (seed 004), whatever their bytes look like. */
const DOCUMENT_EXTENSIONS = ['.docx', '.pptx', '.xlsx', '.xls', '.pdf'];

/** The document kind of a path ('DOCX', 'PDF', ...), or null for anything else. */
export function documentKind(path: string): string | null {
  const lower = path.toLowerCase();
  const ext = DOCUMENT_EXTENSIONS.find((e) => lower.endsWith(e));
  return ext ? ext.slice(1).toUpperCase() : null;
}
