/**
 * Names of quota pools: what shares one minute and one month of allowance. A consumer on a plan
 * is one pool, whichever of their keys, tokens or JWT a request uses; a key an administrator gave
 * limits of its own is a pool by itself.
 */
export function consumerPool(userId: number, planId: number): string {
  return `consumer:${userId}:plan:${planId}`;
}

export function keyPool(keyId: number): string {
  return `key:${keyId}`;
}
