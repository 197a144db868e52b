import { toIso } from '../../../db';
import type { RunEventData } from '../event-types';

export type RunStatus = 'pending' | 'running' | 'completed' | 'failed' | 'stopped';

/** A scraper run's row as its table holds it: read by the runs service, its read side and change detection. */
export interface RunRow {
  id: number;
  scraper_id: number;
  status: RunStatus;
  trigger: 'manual' | 'schedule';
  started_at: unknown;
  finished_at: unknown;
  items_collected: number | null;
  pages_fetched: number | null;
  pages_failed: number | null;
  items_new: number | null;
  items_changed: number | null;
  items_removed: number | null;
  target_report: unknown;
  error: string | null;
  created_at: unknown;
}

/** How a run ended, as the runs service's finish() records it. */
export interface RunOutcome {
  status: RunStatus;
  error?: string | null;
  items_collected?: number;
  pages_fetched?: number;
  pages_failed?: number;
}

/** The payload of every run event (docs/scrapers.md#events). */
export function runPayload(run: RunRow): RunEventData {
  return {
    run_id: run.id,
    scraper_id: run.scraper_id,
    status: run.status,
    started_at: toIso(run.started_at),
    finished_at: toIso(run.finished_at),
    items_collected: run.items_collected ?? 0,
    error: run.error ?? null,
  };
}
