import { Webhook } from 'standardwebhooks';
import type { TestApp } from './app';
import type { ReceivedRequest, Receiver } from './receiver';
import type { TestUser } from './users';
import { eventually } from './wait';

export interface CreatedSubscription {
  id: string;
  endpoint_url: string;
  events: string[];
  secret: string;
  created_at: string;
  test_sent: boolean;
}

/** Create a subscription through the API as `user` and return the 201 body. */
export async function subscribe(app: TestApp, user: TestUser, body: Record<string, unknown>): Promise<CreatedSubscription> {
  const response = await app.request().post('/api/webhooks/subscriptions').set('Authorization', `Bearer ${user.jwt}`).send(body);
  if (response.status !== 201) throw new Error(`subscribe failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as CreatedSubscription;
}

/** Deliveries only: the receiver also sees the reachability probe (HEAD) made at creation. */
export function posts(receiver: Receiver): ReceivedRequest[] {
  return receiver.requests.filter((request) => request.method === 'POST');
}

/** Resolve once the receiver holds `count` POSTs matching `filter`. */
export function waitForPosts(
  receiver: Receiver,
  count: number,
  filter: (request: ReceivedRequest) => boolean = () => true,
  timeoutMs = 15_000
): Promise<ReceivedRequest[]> {
  return eventually(
    () => {
      const matching = posts(receiver).filter(filter);
      return matching.length >= count ? matching : undefined;
    },
    timeoutMs,
    () => `${count} matching POSTs (the receiver got ${posts(receiver).filter(filter).length})`
  );
}

export function eventOf(request: ReceivedRequest): { type: string; timestamp: string; data: Record<string, unknown> } {
  return JSON.parse(request.body);
}

/** Verify a received delivery exactly as a receiver would, with the public standardwebhooks library. */
export function verify(secret: string, request: ReceivedRequest): unknown {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });
}

/** An order event's data as the event catalog's schema has it (administrators' publishes are checked against it). */
export function orderData(id: string | number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: String(id), status: 'pending', total: 25, created_at: '2026-11-22T10:00:00.000Z', ...overrides };
}

/** An article event's data as the schema has it. */
export function articleData(id: string | number): Record<string, unknown> {
  return {
    id: String(id),
    title: 'Hello',
    slug: 'hello',
    status: 'draft',
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
  };
}

/** A product event's data as the schema has it. */
export function productData(id: string | number): Record<string, unknown> {
  return { id: String(id), name: 'Blue mug', slug: 'blue-mug', price: 12.5, stock: 40, published: true, deleted: false };
}
