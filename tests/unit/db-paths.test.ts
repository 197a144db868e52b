import { pgTimestamp, recordsetJson, type Column } from '../../src/plugins/api-suite/server/src/db';
import { packSends, unpackSends, type DeliverySend } from '../../src/plugins/api-suite/server/src/features/webhooks/services/deliveries';

// The driver's own conversion of a bound value (it has no type declarations of its own).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareValue } = require('pg/lib/utils') as { prepareValue(value: unknown): unknown };

describe('pgTimestamp', () => {
  it("writes a Date exactly as the pg driver does in this process's zone, so both paths store the same value", () => {
    const dates = [
      new Date(0),
      new Date('2026-11-23T06:30:00.123Z'),
      new Date('2024-02-29T23:59:59.999Z'),
      new Date('2026-03-08T07:30:00.000Z'),
    ];
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

describe('recordsetJson', () => {
  const columns: Column[] = [
    { name: 'uuid', kind: 'text' },
    { name: 'attempt', kind: 'integer' },
    { name: 'at', kind: 'timestamp' },
    { name: 'payload', kind: 'json' },
    { name: 'error', kind: 'text' },
  ];
  // What it replaced: an object per row holding exactly the columns, through JSON.stringify.
  const reference = (rows: Array<Record<string, unknown>>) =>
    JSON.stringify(
      rows.map((row) =>
        Object.fromEntries(
          columns.map(({ name, kind }) => {
            const value = row[name];
            if (value === undefined || value === null) return [name, null];
            if (kind === 'timestamp') return [name, pgTimestamp(value instanceof Date ? value : new Date(value as string))];
            if (kind === 'json') return [name, typeof value === 'string' ? value : JSON.stringify(value)];
            return [name, value];
          })
        )
      )
    );

  it('writes the same text as JSON.stringify of the rows, across seconds, before 1970, and with text that needs escaping', () => {
    const rows = [
      { uuid: 'a', attempt: 1, at: new Date('2026-11-25T18:00:00.007Z'), payload: '{"note":"say \\"hi\\"\\n"}', error: null },
      {
        uuid: 'b"\\',
        attempt: 2,
        at: new Date('2026-11-25T18:00:00.070Z'),
        payload: { nested: ['x', 1, null] },
        error: 'line\nbreak \u2028',
      },
      { uuid: 'c', attempt: 3, at: new Date('2026-11-25T18:00:01.700Z'), payload: null },
      { uuid: 'd', attempt: 4, at: '2026-11-25T18:00:01.999Z', error: 'é ✓ 😀' },
      { uuid: 'e', attempt: 5, at: new Date(-1), payload: 'null' },
      { uuid: 'f', attempt: 6, at: new Date('1969-12-31T23:59:58.500Z') },
    ];
    expect(recordsetJson(rows, columns)).toBe(reference(rows));
    expect(JSON.parse(recordsetJson(rows, columns))[4].at).toBe(pgTimestamp(new Date(-1)));
  });

  it('writes an empty array for no rows and refuses a value that is not a time', () => {
    expect(recordsetJson([], columns)).toBe('[]');
    expect(() => recordsetJson([{ uuid: 'a', at: 'yesterday' }], columns)).toThrow('Not a time: yesterday');
  });
});

describe('packSends and unpackSends', () => {
  it('stores a body shared by consecutive sends once and gives every send its own back', () => {
    const sends: DeliverySend[] = [
      { delivery: 'a', subscription: 1, type: 'order.paid', body: '{"n":1}', attempt: 1 },
      { delivery: 'b', subscription: 2, type: 'order.paid', body: '{"n":1}', attempt: 1 },
      { delivery: 'c', subscription: 3, type: 'order.paid', body: '{"n":1}', attempt: 1, slotAt: 1_700_000_000_000 },
      { delivery: 'd', subscription: 1, type: 'order.created', body: '{"n":2}', attempt: 3 },
      // Equal to an earlier body but not next to it: stored again (publishing never does this).
      { delivery: 'e', subscription: 1, type: 'order.paid', body: '{"n":1}', attempt: 1 },
    ];
    const packed = packSends(sends);
    expect(packed.bodies).toEqual(['{"n":1}', '{"n":2}', '{"n":1}']);
    expect(packed.sends.map((send) => send.body)).toEqual([0, 0, 0, 1, 2]);
    expect(unpackSends(JSON.parse(JSON.stringify(packed)))).toEqual(sends);
  });

  it('packs an empty body and no sends', () => {
    expect(packSends([])).toEqual({ bodies: [], sends: [] });
    const sends: DeliverySend[] = [
      { delivery: 'a', subscription: 1, type: 't.x', body: '', attempt: 1 },
      { delivery: 'b', subscription: 1, type: 't.x', body: '', attempt: 1 },
    ];
    expect(packSends(sends).bodies).toEqual(['']);
    expect(unpackSends(packSends(sends))).toEqual(sends);
  });
});
