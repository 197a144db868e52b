/**
 * Names of quota pools: what shares one minute and one month of allowance. A consumer on a plan
 * is one pool, whichever of their keys, tokens or JWT a request uses; a key an administrator gave
 * limits of its own is a pool by itself.
 */
export function consumerPool(userId: number, planId: number): string {
  return `consumer:${userId}:plan:${planId}`;
}

/**
 * The pool of a key with limits of its own, named after the first key of its reroll chain
 * (`KeyEntry.poolKeyId`): a rerolled key carries on the minute and month its predecessor used,
 * and shares them with it through the grace period, on the memory and the Redis counters alike.
 */
export function keyPool(keyId: number): string {
  return `key:${keyId}`;
}
