/**
 * The text grammars of the browsers' forms: a scraper's selector fields and extra headers, one
 * `name: value` a line. Selector fields are written `name: selector` and also read as
 * `name=selector` (the portal's form took that form before both faces shared this grammar):
 * the first `:` or `=` of a line separates, so pseudo-classes (`li:first-child`) and attribute
 * selectors (`a[rel=next]`) after it survive. See docs/scrapers.md.
 */

/** Selector fields from their lines; a line without a separator is a name with no selector, which the server names. */
export function parseSelectorFields(text: string): Record<string, string> {
  return parseLines(text, /[:=]/);
}

/** Extra headers from `name: value` lines (only `:` separates: a value may hold `=`). */
export function parseHeaderLines(text: string): Record<string, string> {
  return parseLines(text, /:/);
}

/** `name: value` lines, the form both grammars are written in. */
export function formatNamedLines(entries: Record<string, string>): string {
  return Object.entries(entries)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

function parseLines(text: string, separator: RegExp): Record<string, string> {
  const result: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const at = line.search(separator);
    if (at === -1) result[line.trim()] = '';
    else result[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return result;
}
