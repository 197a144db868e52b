import type { AccountExport } from './validation/responses';

/** Whose account: the user, and the opaque consumer id their records are filed under (null for a user who never had one). */
export interface AccountHolder {
  userId: number;
  consumerId: string | null;
}

/** One account being closed: read, with every part's share, before anything changes. */
export interface ClosingAccount extends AccountHolder {
  email: string | null;
  username: string | null;
  /** Who closed it, for the confirmation e-mail. */
  by: 'consumer' | 'administrator';
  parts: PreparedClosing[];
}

/** The sections of `GET /api/v1/account/export` that parts fill (the profile and the time are the accounts feature's own). */
export type ExportSections = Omit<AccountExport, 'exported_at' | 'profile'>;

/** Run `work` after `ms`, its failure logged as `what`; cleared when the plugin stops. */
export type Later = (ms: number, what: string, work: () => Promise<unknown>) => void;

/**
 * A part's share of closing one account, made from what it read before anything changed (see
 * `AccountPart.prepareClosing`). Every hook is optional.
 */
export interface PreparedClosing {
  /**
   * Something outside the site that must end before anything is deleted, when the consumer closes
   * their own account (a paid subscription): throwing refuses the closing, with nothing deleted.
   */
  endFirst?(): Promise<void>;
  /**
   * Inside an administrator's deleting transaction, read only: throwing refuses the delete (of
   * every user of a bulk delete), with nothing changed anywhere.
   */
  check?(): Promise<void>;
  /** Once an administrator's delete has committed: what `endFirst` does, tried again a few times, never throwing. */
  endAfterDelete?(): Promise<void>;
  /** Delete or detach what the part keeps: safe to run again, each run finding what is left. */
  carryOut?(later: Later): Promise<void>;
  /** A line of the confirmation e-mail, once carried out; null for none. */
  confirmation?(): string | null;
}

/**
 * When a part's `carryOut` runs: `access` first (keys and plans, so the consumer's requests stop
 * at once), then `work` (what would go on acting for them: subscriptions, scrapers), then
 * `records` (what stays for accounting without the person). Within a phase, in the order parts
 * were added.
 */
export type ClosingPhase = 'access' | 'work' | 'records';
export const CLOSING_PHASES: readonly ClosingPhase[] = ['access', 'work', 'records'];

/**
 * What a feature keeps about a consumer, added to the accounts feature at register time
 * (`getService(strapi, 'account-parts').add(…)`), as purge kinds are added to retention and
 * event types to the catalog: the export and the closing of an account go through every part,
 * and the accounts feature reads no other feature's tables. A new feature that keeps something
 * about consumers adds a part; nothing in accounts changes but the export's schema, which names
 * each section (docs/accounts.md).
 */
export interface AccountPart {
  name: string;
  /** Its sections of the export, as the feature's own routes show them. */
  export?(holder: AccountHolder): Promise<Partial<ExportSections>>;
  phase?: ClosingPhase;
  /**
   * What closing will act on, read before anything changes: the user's relations go with the
   * user row, and inside an administrator's delete this runs in the deleting transaction (read
   * through `strapi.db.query`, or `inCurrentTransaction` for knex). Null: nothing to do.
   */
  prepareClosing?(holder: AccountHolder): Promise<PreparedClosing | null>;
}

/** Every item of a list a service reads a page at a time: page after page, until `total` or an empty page. */
export async function everyPage<T>(read: (page: number) => Promise<{ items: T[]; total: number }>): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; ; page += 1) {
    const { items, total } = await read(page);
    all.push(...items);
    if (items.length === 0 || all.length >= total) return all;
  }
}
