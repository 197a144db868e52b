import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/**
 * Random bytes for ids, drawn from the system 1,024 ids at a time. The uuid package draws them
 * 16 ids at a time, and in a busy process that refill (randomFillSync) was 5 % of publishing's
 * CPU in bench/webhooks' burst.
 */
const pool = new Uint8Array(16 * 1024);
let used = pool.length;

/**
 * A new delivery's id, which receivers see as its `webhook-id`: a UUID of version 7 (RFC 9562),
 * whose leading 48 bits are the time it was made. Deliveries made together therefore sort
 * together, and the unique index on the id grows at its end, as the serial id's does, instead
 * of at a random page for each new delivery: the pages that publishing writes and the worker
 * reads back and updates stay the same few recent ones, in memory. (Ids made within the same
 * millisecond are in random order among themselves, which RFC 9562 allows.)
 */
export function newDeliveryId(): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const random = pool.subarray(used, used + 16);
  used += 16;
  return v7({ random });
}
