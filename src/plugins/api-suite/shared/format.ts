/**
 * How the plugin's two browsers (the admin panel and the consumer portal) write money and plan
 * names, so a price or a plan reads the same on every page of either.
 */

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
