import { pgTimestamp } from '../../src/plugins/api-suite/server/src/db';
import { packSends, unpackSends, type DeliverySend } from '../../src/plugins/api-suite/server/src/features/webhooks/services/deliveries';

// The driver's own conversion of a bound value (it has no type declarations of its own).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareValue } = require('pg/lib/utils') as { prepareValue(value: unknown): unknown };

describe('pgTimestamp', () => {
  it("writes a Date exactly as the pg driver does in this process's zone, so both paths store the same value", () => {
    const dates = [new Date(0), new Date('2026-11-23T06:30:00.123Z'), new Date('2024-02-29T23:59:59.999Z'), new Date('2026-03-08T07:30:00.000Z')];
    for (const date of dates) expect(pgTimestamp(date)).toBe(prepareValue(date));
  });

  it.each([
    [0, '2026-11-23T06:30:00.123+00:00'],
    [330, '2026-11-23T12:00:00.123+05:30'],
    [-300, '2026-11-23T01:30:00.123-05:00'],
    [-570, '2026-11-22T21:00:00.123-09:30'],
  ])('writes local time and the offset in a zone %i minutes east of UTC', (offset, expected) => {
    expect(pgTimestamp(new Date('2026-11-23T06:30:00.123Z'), offset)).toBe(expected);
  });
});

describe('packSends and unpackSends', () => {
  it('stores each distinct body once and gives every send its own back', () => {
    const sends: DeliverySend[] = [
      { delivery: 'a', subscription: 1, type: 'order.paid', body: '{"n":1}', attempt: 1 },
      { delivery: 'b', subscription: 2, type: 'order.paid', body: '{"n":1}', attempt: 1 },
      { delivery: 'c', subscription: 1, type: 'order.created', body: '{"n":2}', attempt: 3 },
    ];
    const packed = packSends(sends);
    expect(packed.bodies).toEqual(['{"n":1}', '{"n":2}']);
    expect(packed.sends.map((send) => send.body)).toEqual([0, 0, 1]);
    expect(unpackSends(JSON.parse(JSON.stringify(packed)))).toEqual(sends);
  });
});
