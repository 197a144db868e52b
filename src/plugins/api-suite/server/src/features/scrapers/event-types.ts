import { z } from 'zod';
import { defineEvent } from '../webhooks/events/registry';
import { runStatus } from './validation/responses';

/** Scraper run events (docs/scrapers.md#events): to the scraper's owner only. */
const at = (description: string) => z.iso.datetime().nullable().meta({ description });

export const runEventData = z.strictObject({
  run_id: z.int().min(1),
  scraper_id: z.int().min(1),
  status: runStatus,
  started_at: at('When the run started.'),
  finished_at: at('When it ended.'),
  items_collected: z.int().min(0),
  error: z.string().nullable().meta({ description: 'Why a failed run failed.' }),
});
export type RunEventData = z.infer<typeof runEventData>;

export const resultsChangedEventData = z.strictObject({
  run_id: z.int().min(1),
  scraper_id: z.int().min(1),
  new: z.int().min(0).meta({ description: 'Items whose key the previous completed run did not have.' }),
  changed: z.int().min(0).meta({ description: "Items whose content differs from the previous completed run's." }),
  removed: z.int().min(0).meta({ description: 'Keys of the previous completed run this run did not find.' }),
});
export type ResultsChangedEventData = z.infer<typeof resultsChangedEventData>;

const run: RunEventData = {
  run_id: 381,
  scraper_id: 12,
  status: 'running',
  started_at: '2026-01-01T12:00:00.000Z',
  finished_at: null,
  items_collected: 0,
  error: null,
};
const finished = { finished_at: '2026-01-01T12:01:30.000Z', items_collected: 120 };

const defineRun = (name: string, description: string, example: RunEventData) =>
  defineEvent({ name, description, schema: runEventData, example, audience: 'named', owner: 'scrapers' });

export const SCRAPER_EVENTS = [
  defineRun('run.started', 'A scraper run started.', run),
  defineRun('run.completed', 'A scraper run finished successfully.', { ...run, ...finished, status: 'completed' }),
  defineRun('run.failed', 'A scraper run failed.', {
    ...run,
    ...finished,
    items_collected: 0,
    status: 'failed',
    error: 'HTTP 503 from the start URL',
  }),
  defineRun('run.stopped', 'A scraper run was stopped by its owner.', { ...run, ...finished, items_collected: 40, status: 'stopped' }),
  defineRun('results.created', 'A scraper run stored new results.', { ...run, ...finished, status: 'completed' }),
  defineEvent({
    name: 'results.changed',
    description: 'A completed run of a scraper with change detection found new, changed or removed items (not sent when nothing changed).',
    schema: resultsChangedEventData,
    example: { run_id: 42, scraper_id: 7, new: 3, changed: 1, removed: 2 },
    audience: 'named',
    owner: 'scrapers',
  }),
];

declare module '../webhooks/events/registry' {
  interface EventPayloads {
    'run.started': RunEventData;
    'run.completed': RunEventData;
    'run.failed': RunEventData;
    'run.stopped': RunEventData;
    'results.created': RunEventData;
    'results.changed': ResultsChangedEventData;
  }
}
