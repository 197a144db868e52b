import type { z } from 'zod';

/**
 * The answer is what its response schema says, no more and no less: it parses, and parsing drops
 * nothing (a field the schema leaves out would be dropped). The admin's types are inferred from
 * these schemas, so this is what keeps them true.
 */
export function expectAnswer(schema: z.ZodType, value: unknown): void {
  expect(schema.parse(value)).toEqual(value);
}
