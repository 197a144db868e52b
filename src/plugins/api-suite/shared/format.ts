/**
 * How the plugin's two browsers (the admin panel and the consumer portal) write money, plan names
 * and times, so a price, a plan or a moment reads the same on every page of either.
 */

/**
 * A moment as both browsers write it: in UTC, on a 24-hour clock, with the zone said
 * ("28 Nov 2026, 14:43 UTC"; with `seconds`, "28 Nov 2026, 14:43:05 UTC"), so an editor, a
 * consumer and a receiver's log name one moment alike; "—" for none.
 */
export function formatDateTime(value: string | Date | null | undefined, options: { seconds?: boolean; year?: boolean } = {}): string {
  if (!value) return '—';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  const text = date.toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    ...(options.year === false ? {} : { year: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
    ...(options.seconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
    timeZone: 'UTC',
  });
  return `${text} UTC`;
}

/** An amount of money with its currency, "€49.00": in major units, or minor (hundredths) with `unit: 'minor'`. */
export function formatMoney(amount: number, currency: string, options: { unit?: 'major' | 'minor'; locale?: string } = {}): string {
  const major = options.unit === 'minor' ? amount / 100 : amount;
  try {
    return new Intl.NumberFormat(options.locale ?? 'en-US', { style: 'currency', currency: currency.toUpperCase() }).format(major);
  } catch {
    // A code Intl does not know: the amount and the code, never a bare number.
    return `${major.toFixed(2)} ${currency.toUpperCase()}`;
  }
}

/** A plan's name as pages show it: as its editor wrote it ("pro"), never recased by one page and not another. */
export function planName(name: string): string {
  return name.trim();
}
