/**
 * Cells of a CSV export. Scraped text is the site's, not ours: a cell that a spreadsheet would
 * read as a formula (`=`, `+`, `-`, `@`, or a tab or carriage return before one) is prefixed
 * with `'`, which spreadsheets show as text, as OWASP's CSV-injection advice has it.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}
