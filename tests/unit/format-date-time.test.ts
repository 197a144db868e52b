import { formatDateTime } from '../../src/plugins/api-suite/shared/format';

/** One way to write a moment in the admin panel and the portal: UTC, 24-hour, the zone said. */
it('writes a moment in UTC on a 24-hour clock, with the zone, whatever the machine’s own zone', () => {
  expect(formatDateTime('2026-11-28T14:43:05.120Z')).toBe('28 Nov 2026, 14:43 UTC');
  expect(formatDateTime('2026-11-28T14:43:05.120Z', { seconds: true })).toBe('28 Nov 2026, 14:43:05 UTC');
  expect(formatDateTime(new Date('2026-01-02T00:05:00Z'), { year: false })).toBe('2 Jan, 00:05 UTC');
  // Midnight is 00, not 24 or 12 AM.
  expect(formatDateTime('2026-11-29T00:00:00Z')).toBe('29 Nov 2026, 00:00 UTC');
});

it('writes a dash for no moment, or one that does not parse', () => {
  expect(formatDateTime(null)).toBe('—');
  expect(formatDateTime(undefined)).toBe('—');
  expect(formatDateTime('not a date')).toBe('—');
});
