import { newDeliveryId } from '../../src/plugins/api-suite/server/src/features/webhooks/delivery/ids';

describe('delivery ids (newDeliveryId)', () => {
  it('are UUIDs of version 7 that begin with the time they were made, distinct across refills of the random pool', () => {
    const before = Date.now();
    // More than the pool's 1,024 ids, so the pool is refilled at least twice.
    const ids = Array.from({ length: 3000 }, () => newDeliveryId());
    const after = Date.now();
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(3000);
    const times = ids.map((id) => parseInt(id.replace(/-/g, '').slice(0, 12), 16));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(before);
    expect(Math.max(...times)).toBeLessThanOrEqual(after);
    // The random parts of consecutive ids differ: each takes its own 16 bytes of the pool.
    const tails = new Set(ids.map((id) => id.slice(24)));
    expect(tails.size).toBe(3000);
  });
});
