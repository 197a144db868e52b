import type { PluginConfig } from '../../config';

/**
 * A kind of row a purge deletes (`webhook_deliveries`, `usage_records`, …): the `kind` label of
 * `api_suite_purged_rows_total`. Each purger names its own; the retention feature knows none.
 */
export type PurgedKind = string;

/** At most this many rows leave in one batch (one transaction), so no purge holds locks or the database for long. */
export const PURGE_BATCH_ROWS = 5_000;

export interface PurgeContext {
  /** The purge's one reading of the clock: every limit counts back from it. */
  now: Date;
  settings: PluginConfig['retention'];
  /** The most rows one batch may delete, whatever their kind. */
  batchRows: number;
}

/** What one batch deleted, by kind. */
export type PurgedRows = Partial<Record<PurgedKind, number>>;

/** The next batch of a purge, deleting at most `batchRows` rows; null once nothing is left to purge. */
export type NextBatch = () => Promise<PurgedRows | null>;

/**
 * One kind of record that a feature keeps only for a while, registered with the retention service
 * at register time (`getService(strapi, 'retention').add(…)`), so a new feature's records join the
 * purge without the retention feature knowing of them. `open` looks at the settings and returns the purge's batches, or null when the
 * kind is kept forever (its limit is 0).
 */
export interface Purger {
  name: string;
  /** The kinds of rows its batches report, in the order the purge's log line lists them. */
  kinds: readonly PurgedKind[];
  open(context: PurgeContext): Promise<NextBatch | null>;
}
