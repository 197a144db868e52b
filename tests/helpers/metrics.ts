import type { TestApp } from './app';

/** The app's metrics as `GET /metrics` would answer them, read in the test's process (no token needed). */
export async function metricsOf(app: TestApp): Promise<string> {
  const metrics = app.strapi.plugin('api-suite').service('metrics') as { exposition(): Promise<{ body: string }> };
  return (await metrics.exposition()).body;
}

/** The value of one series (`name{label="value",…}` exactly as exposed), or 0 when it has not been written yet. */
export function seriesValue(exposition: string, series: string): number {
  const line = exposition.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** How much each series moved between two readings. */
export function movedBetween(before: string, after: string): (series: string) => number {
  return (series) => seriesValue(after, series) - seriesValue(before, series);
}
