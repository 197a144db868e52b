import type { TargetAttribute } from '../../src/plugins/api-suite/server/src/features/scrapers/target/check';
import { coerceValue } from '../../src/plugins/api-suite/server/src/features/scrapers/target/coerce';

/** Scraped text brought to each kind of attribute a scraper's target may fill, or refused with a reason. */
function attribute(scalar: TargetAttribute['scalar'], overrides: Partial<TargetAttribute> = {}): TargetAttribute {
  return { name: 'value', field: 'value', scalar, type: scalar, values: [], required: false, ...overrides };
}

const value = (kind: TargetAttribute, raw: unknown) => {
  const coerced = coerceValue(kind, raw);
  return coerced.ok ? coerced.value : `refused: ${coerced.reason}`;
};

describe('coerceValue', () => {
  it('reads numbers as pages write them, and refuses what is no number', () => {
    const number = attribute('number');
    expect(value(number, ' 12.5 ')).toBe(12.5);
    expect(value(number, '$1,200.50')).toBe(1200.5);
    expect(value(number, '1 200 €')).toBe(1200);
    expect(value(number, '-3')).toBe(-3);
    expect(value(number, 'call us')).toMatch(/^refused: "call us" is not a number/);
    expect(value(number, '1,5')).toMatch(/^refused/);
    expect(value(attribute('integer'), '42')).toBe(42);
    expect(value(attribute('integer'), '4.2')).toMatch(/not a whole number/);
    expect(value(attribute('biginteger'), '9007199254740993')).toBe('9007199254740993');
  });

  it('reads yes and no, dates, times and an enumeration’s values', () => {
    expect(value(attribute('boolean'), 'Yes')).toBe(true);
    expect(value(attribute('boolean'), 'off')).toBe(false);
    expect(value(attribute('boolean'), 'maybe')).toMatch(/^refused/);
    expect(value(attribute('date'), '2026-03-04')).toBe('2026-03-04');
    expect(value(attribute('datetime'), '2026-03-04T05:06:07Z')).toBe('2026-03-04T05:06:07.000Z');
    expect(value(attribute('date'), 'soon')).toMatch(/not a date/);
    expect(value(attribute('time'), '9:30')).toBe('09:30:00.000');
    expect(value(attribute('time'), '25:00')).toMatch(/not a time/);
    const colour = attribute('enumeration', { values: ['red', 'green'] });
    expect(value(colour, 'Green')).toBe('green');
    expect(value(colour, 'blue')).toMatch(/not one of red, green/);
  });

  it('makes text blocks of paragraphs, keeps text, and refuses an empty required value', () => {
    expect(value(attribute('blocks'), 'One\n\nTwo')).toEqual([
      { type: 'paragraph', children: [{ type: 'text', text: 'One' }] },
      { type: 'paragraph', children: [{ type: 'text', text: 'Two' }] },
    ]);
    expect(value(attribute('string'), '  Title ')).toBe('Title');
    expect(value(attribute('string'), '')).toBeNull();
    expect(value(attribute('string', { required: true }), null)).toMatch(/required/);
    expect(value(attribute('json'), { a: 1 })).toEqual({ a: 1 });
  });
});
