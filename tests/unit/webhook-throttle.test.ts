import { memorySlotBook, slotWaits } from '../../src/plugins/api-suite/server/src/features/webhooks/delivery/throttle';

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
