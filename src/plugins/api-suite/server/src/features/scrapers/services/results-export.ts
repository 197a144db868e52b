import { Readable, type Transform } from 'node:stream';
import type { Core } from '@strapi/strapi';
import { stringify } from 'csv-stringify';
import { getService } from '../../../utils';
import { csvCell } from '../csv-cells';
import type { ScraperSelectors } from '../validation';
import type { ScraperRow } from './scrapers';

/** A results export as a route streams it: its file name, content type and the streams that make its body. */
export interface ResultsExport {
  filename: string;
  type: string;
  streams: [Readable, ...Transform[]];
}

/**
 * A scraper's results (of one run, or every run; narrowed to some changes) as NDJSON or CSV, read
 * from the database as the body streams (docs/scrapers.md). The controller only sends it.
 */
export function resultsExport(
  strapi: Core.Strapi,
  row: ScraperRow,
  query: { format: 'ndjson' | 'csv'; run_id?: number; change?: Array<'new' | 'changed' | 'unchanged'> }
): ResultsExport {
  const name = `scraper-${row.id}${query.run_id ? `-run-${query.run_id}` : ''}-results`;
  const results = getService(strapi, 'scraper-runs').allResults(row.id, { runId: query.run_id, change: query.change });
  if (query.format === 'ndjson') {
    const lines = Readable.from(
      (async function* ndjson() {
        for await (const result of results) yield `${JSON.stringify(result)}\n`;
      })()
    );
    return { filename: `${name}.ndjson`, type: 'application/x-ndjson', streams: [lines] };
  }
  // The change column only with change detection on, so other scrapers' exports keep their columns.
  const withChange = row.change_detection !== null && row.change_detection !== undefined;
  const fields = csvFields(row, withChange);
  const rows = Readable.from(
    (async function* rows() {
      for await (const result of results) {
        const change = withChange ? [result.change ?? ''] : [];
        yield [
          result.id,
          result.run_id,
          csvCell(result.url),
          result.created_at,
          ...change,
          ...fields.map((field) => csvCell(result.data[field.key])),
        ];
      }
    })()
  );
  const fixed = ['id', 'run_id', 'url', 'created_at', ...(withChange ? ['change'] : [])];
  return {
    filename: `${name}.csv`,
    type: 'text/csv; charset=utf-8',
    streams: [rows, stringify({ header: true, columns: [...fixed, ...fields.map((field) => csvCell(field.column))] })],
  };
}

/** CSV columns after id, run_id, url, created_at (and change): the scraper's fields, or the default url and title. */
function csvFields(row: ScraperRow, withChange: boolean): Array<{ key: string; column: string }> {
  const selectors = (typeof row.selectors === 'string' ? JSON.parse(row.selectors) : row.selectors) as ScraperSelectors | null;
  const keys = selectors?.fields ? Object.keys(selectors.fields) : ['url', 'title'];
  const fixed = new Set(['id', 'run_id', 'url', 'created_at', ...(withChange ? ['change'] : [])]);
  return keys.map((key) => ({ key, column: fixed.has(key) ? `data_${key}` : key }));
}
