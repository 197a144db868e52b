import type {
  ArticleEventData,
  BillingSubscriptionEventData,
  EventData,
  EventName,
  OrderEventData,
  ProductEventData,
  RunEventData,
} from '../validation/event-data';

/**
 * The event types the plugin publishes (docs/webhooks.md#event-types). They are created at boot
 * when missing; an editor may then describe them differently or switch one off in the admin panel,
 * and those edits are kept. A switched-off type can no longer be subscribed to and is not
 * published.
 */
export interface EventTypeDefinition<T extends EventName = EventName> {
  name: T;
  description: string;
  /** Typed by the event's data schema (`validation/event-data.ts`), so an example cannot drift from what is sent. */
  example_payload: EventData<T>;
}

export const TEST_EVENT_TYPE = 'webhook.test';
export const WILDCARD = '*';

const article: ArticleEventData = {
  id: '1b4e28ba-2fa1-4d2b-a9c1-6b0a3f1c9d2e',
  title: 'Hello world',
  slug: 'hello-world',
  status: 'published',
  createdAt: '2026-01-01T12:00:00.000Z',
  updatedAt: '2026-01-01T12:05:00.000Z',
};
const product: ProductEventData = {
  id: 'q8v2k1m0x9c7b6n5z4l3j2h1',
  name: 'Blue mug',
  slug: 'blue-mug',
  price: 12.5,
  stock: 40,
  published: true,
  deleted: false,
};
const order: OrderEventData = {
  id: 'c0a8012e-7d1f-4f5e-9a3b-2e4d6f8a1b3c',
  status: 'pending',
  total: 25,
  created_at: '2026-01-01T12:00:00.000Z',
};
const paidOrder: OrderEventData = {
  ...order,
  status: 'paid',
  paid_at: '2026-01-01T12:03:00.000Z',
  payment_id: 'pi_3Qx2k1LmNoPqRsTu0AbCdEfG',
};
const billingSubscription: BillingSubscriptionEventData = {
  consumer_id: '9b2e7c1a-4f3d-4e5a-8b6c-1d2e3f4a5b6c',
  subscription_id: 'sub_1Qx2k1LmNoPqRsTu',
  plan_id: 2,
  status: 'active',
  current_period_end: '2026-02-01T12:00:00.000Z',
  cancel_at_period_end: false,
  grace_until: null,
};
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

/** One entry per event name; `satisfies` keeps each example typed by its own event's schema. */
export const EVENT_CATALOG = [
  { name: 'order.created', description: 'An order was placed (checkout started).', example_payload: order },
  { name: 'order.updated', description: 'An order changed status or total.', example_payload: { ...order, status: 'cancelled' } },
  { name: 'order.paid', description: 'Payment for an order succeeded.', example_payload: paidOrder },
  {
    name: 'article.created',
    description: 'An article was created (API or admin panel).',
    example_payload: { ...article, status: 'draft' },
  },
  { name: 'article.updated', description: 'An article was changed.', example_payload: article },
  { name: 'article.published', description: "An article's status became published.", example_payload: article },
  { name: 'article.deleted', description: 'An article was deleted.', example_payload: article },
  { name: 'product.created', description: 'A product was created.', example_payload: product },
  {
    name: 'product.updated',
    description: 'A product was changed, published, unpublished or deleted.',
    example_payload: { ...product, stock: 39 },
  },
  { name: 'run.started', description: 'A scraper run started.', example_payload: run },
  {
    name: 'run.completed',
    description: 'A scraper run finished successfully.',
    example_payload: { ...run, ...finished, status: 'completed' },
  },
  {
    name: 'run.failed',
    description: 'A scraper run failed.',
    example_payload: { ...run, ...finished, items_collected: 0, status: 'failed', error: 'HTTP 503 from the start URL' },
  },
  {
    name: 'run.stopped',
    description: 'A scraper run was stopped by its owner.',
    example_payload: { ...run, ...finished, items_collected: 40, status: 'stopped' },
  },
  {
    name: 'results.created',
    description: 'A scraper run stored new results.',
    example_payload: { ...run, ...finished, status: 'completed' },
  },
  {
    name: 'results.changed',
    description: 'A completed run of a scraper with change detection found new, changed or removed items (not sent when nothing changed).',
    example_payload: { run_id: 42, scraper_id: 7, new: 3, changed: 1, removed: 2 },
  },
  {
    name: 'billing.subscription.created',
    description: 'A consumer bought a plan: their subscription is live.',
    example_payload: billingSubscription,
  },
  {
    name: 'billing.subscription.updated',
    description: 'A subscription changed plan, status, renewal or cancellation, or its grace period ended.',
    example_payload: { ...billingSubscription, cancel_at_period_end: true },
  },
  {
    name: 'billing.subscription.canceled',
    description: "A subscription ended; the consumer's keys are back on the default plan.",
    example_payload: { ...billingSubscription, status: 'canceled' },
  },
  {
    name: 'billing.payment_failed',
    description: "A subscription's payment failed; its plan holds until the grace period ends.",
    example_payload: {
      ...billingSubscription,
      status: 'past_due',
      grace_until: '2026-01-08T12:00:00.000Z',
      invoice_id: 'in_1Qx2k1LmNoPqRsTu',
      amount_due: 4900,
      currency: 'eur',
    },
  },
  {
    name: TEST_EVENT_TYPE,
    description: 'A test event, sent when a subscription is created and on demand.',
    example_payload: { subscription_id: '0f8fad5b-d9cb-469f-a165-70867728950e', message: 'This is a test event.' },
  },
] satisfies Array<{ [T in EventName]: EventTypeDefinition<T> }[EventName]>;
