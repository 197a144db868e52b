import crypto from 'node:crypto';
import { invalid } from './errors';
import type { EventQueue } from './events';
import type { Params } from './form';
import type {
  StubCustomer,
  StubInvoice,
  StubList,
  StubMeter,
  StubMeterEvent,
  StubPortalSession,
  StubPrice,
  StubProduct,
  StubSession,
  StubSubscription,
} from './types';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An id as Stripe makes them: a prefix and random letters and digits (`cus_`, `price_`, `sub_`…). */
export function newId(prefix: string, length = 24): string {
  const bytes = crypto.randomBytes(length);
  return prefix + Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

/** Now in Unix seconds, as every `created` is. */
export const now = (): number => Math.floor(Date.now() / 1000);

/** `start` moved on by `count` intervals, the day of the month clamped as Stripe's billing cycle does (Jan 31 → Feb 28). */
export function addInterval(start: number, interval: string, count: number): number {
  const date = new Date(start * 1000);
  if (interval === 'day') return start + count * 86400;
  if (interval === 'week') return start + count * 7 * 86400;
  const months = interval === 'year' ? 12 * count : count;
  const target = new Date(date);
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return Math.floor(target.getTime() / 1000);
}

/** Every object the stub holds, for the handlers and for a test's assertions. */
export class Store {
  readonly products = new Map<string, StubProduct>();
  readonly prices = new Map<string, StubPrice>();
  readonly meters = new Map<string, StubMeter>();
  readonly customers = new Map<string, StubCustomer>();
  readonly subscriptions = new Map<string, StubSubscription>();
  readonly invoices = new Map<string, StubInvoice>();
  readonly portalSessions = new Map<string, StubPortalSession>();
  /** Accepted meter events, in the order they came. */
  readonly meterEvents: StubMeterEvent[] = [];

  constructor(readonly sessions: Map<string, StubSession>) {}

  /** The sum of the values of the accepted meter events naming `customerId` (of one event name, or all). */
  meterTotal(customerId: string, eventName?: string): number {
    let total = 0;
    for (const event of this.meterEvents) {
      const meter = [...this.meters.values()].find((candidate) => candidate.event_name === event.event_name);
      if (!meter || (eventName && event.event_name !== eventName)) continue;
      if (event.payload[meter.customer_mapping.event_payload_key] !== customerId) continue;
      total += Number(event.payload[meter.value_settings.event_payload_key] ?? 0);
    }
    return total;
  }

  /** The stored object with this id, whatever its kind (for `expand`). */
  byId(id: string): object | undefined {
    for (const map of [this.customers, this.subscriptions, this.invoices, this.prices, this.products, this.meters, this.sessions] as Map<
      string,
      object
    >[]) {
      const found = map.get(id);
      if (found) return found;
    }
    return undefined;
  }
}

/** What every handler gets: the store, the event queue, and the stub's own address. */
export interface StubContext {
  store: Store;
  events: EventQueue;
  base: string;
}

/** A page of a list, newest first, with `limit`, `starting_after` and `ending_before` as Stripe reads them. */
export function listOf<T extends { id: string }>(items: T[], params: Params, url: string): StubList<T> {
  const limit = params.int('limit', { min: 1, max: 100 }) ?? 10;
  const after = params.string('starting_after');
  const before = params.string('ending_before');
  let all = [...items].reverse();
  if (after) {
    const index = all.findIndex((item) => item.id === after);
    if (index < 0) throw invalid(`No such object: '${after}'`, 'starting_after', 'resource_missing');
    all = all.slice(index + 1);
  } else if (before) {
    const index = all.findIndex((item) => item.id === before);
    if (index < 0) throw invalid(`No such object: '${before}'`, 'ending_before', 'resource_missing');
    all = all.slice(Math.max(0, index - limit), index);
  }
  return { object: 'list', data: all.slice(0, limit), has_more: all.length > limit, url };
}

/**
 * A copy of `object` with the `expand[]` paths replaced by the objects their ids name (`latest_invoice`,
 * `items.data.price.product`, `data.customer` in a list). A path that names no id is refused as Stripe does.
 */
export function expand(object: unknown, paths: string[], store: Store): unknown {
  let copy = structuredClone(object);
  for (const path of paths) copy = expandPath(copy, path.split('.'), path, store);
  return copy;
}

function expandPath(value: unknown, segments: string[], path: string, store: Store): unknown {
  if (Array.isArray(value)) return value.map((item) => expandPath(item, segments, path, store));
  if (value === null || typeof value !== 'object') throw invalid(`This property cannot be expanded (${path}).`, 'expand');
  const record = value as Record<string, unknown>;
  const [head, ...rest] = segments;
  if (!(head in record)) throw invalid(`This property cannot be expanded (${path}).`, 'expand');
  if (rest.length > 0) {
    record[head] = expandPath(record[head], rest, path, store);
    return record;
  }
  const target = record[head];
  if (typeof target === 'string') {
    const found = store.byId(target);
    if (!found) throw invalid(`This property cannot be expanded (${path}).`, 'expand');
    record[head] = structuredClone(found);
  } else if (target !== null && typeof target !== 'object') {
    throw invalid(`This property cannot be expanded (${path}).`, 'expand');
  }
  return record;
}
