import { v7 } from 'uuid';

/**
 * A new delivery's id, which receivers see as its `webhook-id`: a UUID of version 7 (RFC 9562),
 * whose leading 48 bits are the time it was made. Deliveries made together therefore sort
 * together, and the unique index on the id grows at its end, as the serial id's does, instead
 * of at a random page for each new delivery: the pages that publishing writes and the worker
 * reads back and updates stay the same few recent ones, in memory.
 */
export function newDeliveryId(): string {
  return v7();
}
