import { atSlotTimes } from '../../src/plugins/api-suite/server/src/features/webhooks/delivery/pacer';
import { memorySlotBook, slotWaits } from '../../src/plugins/api-suite/server/src/features/webhooks/delivery/throttle';
import type { DeliverySend } from '../../src/plugins/api-suite/server/src/features/webhooks/delivery/types';
import { createManualClock } from '../helpers/manual-clock';

describe("the throttle's slot book", () => {
  it('spaces slots 1/rate apart from the first free one', () => {
    expect(slotWaits(0, 200, 4)).toEqual([0, 200, 400, 600]);
    expect(slotWaits(-5, 100, 2)).toEqual([0, 95]);
  });

  it("books each subscription's slots after those already taken, and starts afresh once idle or forgotten", async () => {
    let now = 1_000;
    const book = memorySlotBook(() => now);
    expect(await book.reserve(1, 10, 3)).toEqual([0, 100, 200]);
    expect(await book.reserve(1, 10, 2)).toEqual([300, 400]);
    // Another subscription has its own slots.
    expect(await book.reserve(2, 2, 2)).toEqual([0, 500]);
    now += 250;
    expect(await book.reserve(1, 10, 1)).toEqual([250]);
    now += 10_000;
    expect(await book.reserve(1, 10, 1)).toEqual([0]);
    await book.reserve(1, 1, 5);
    await book.forget(1);
    expect(await book.reserve(1, 1, 1)).toEqual([0]);
  });
});

describe('sends at their slot times (the worker)', () => {
  const send = (delivery: string, slotAt?: number): DeliverySend => ({
    delivery,
    subscription: 1,
    attempt: 1,
    type: 'article.created',
    body: '{}',
    ...(slotAt === undefined ? {} : { slotAt }),
  });

  it('makes the due ones at once, together, and each later one at its own time, on the clock', async () => {
    const clock = createManualClock(10_000);
    const made: Array<{ at: number; deliveries: string[] }> = [];
    const outcomes = atSlotTimes(
      [send('free'), send('past', 9_990), send('in-100', 10_100), send('in-250', 10_250)],
      clock,
      async (due) => {
        made.push({ at: clock.now(), deliveries: due.map((one) => one.delivery) });
        return due.map((one) => one.delivery);
      }
    );
    expect(made).toEqual([{ at: 10_000, deliveries: ['free', 'past'] }]);
    await clock.advance(99);
    expect(made).toHaveLength(1);
    await clock.advance(1);
    expect(made[1]).toEqual({ at: 10_100, deliveries: ['in-100'] });
    await clock.advance(150);
    expect(made[2]).toEqual({ at: 10_250, deliveries: ['in-250'] });
    await expect(outcomes).resolves.toEqual(['free', 'past', 'in-100', 'in-250']);
    expect(clock.pending()).toBe(0);
  });

  it('lets slots that fell due during a stalled event loop go when it wakes', async () => {
    const clock = createManualClock(10_000);
    const made: Array<{ at: number; deliveries: string[] }> = [];
    const outcomes = atSlotTimes([send('in-100', 10_100), send('in-200', 10_200)], clock, async (due) => {
      made.push({ at: clock.now(), deliveries: due.map((one) => one.delivery) });
      return [];
    });
    clock.jump(500);
    await clock.advance(0);
    expect(made.map((entry) => entry.deliveries)).toEqual([[], ['in-100'], ['in-200']]);
    expect(made.slice(1).map((entry) => entry.at)).toEqual([10_500, 10_500]);
    await expect(outcomes).resolves.toEqual([]);
  });
});
