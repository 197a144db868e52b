import type { TargetAttribute } from './check';

/** The part of a document service a lookup needs. */
interface Documents {
  findFirst(params: never): Promise<unknown>;
  findMany(params: never): Promise<unknown>;
}

/**
 * Key kinds whose values read back from the database as they were written, once in text: a
 * batch's documents are found in one `$in` query and told apart by the key's text. Dates and
 * times may come back in another form than the item's (a datetime with its milliseconds), so
 * those keys are looked up one by one.
 */
const MATCHED_AS_TEXT: ReadonlySet<string> = new Set(['string', 'enumeration', 'integer', 'biginteger', 'number']);

/**
 * Finds the documents of a batch of key values: `found(value)` is the document whose key attribute
 * has that value (its draft, as `findFirst` reads), or null. The first document found wins, as with
 * `findFirst`, should the site hold two with one key. Items whose documents exist (a run that
 * updates, or finds nothing changed) cost one query a batch instead of one each; a new key is
 * still looked up alone before its document is created.
 */
export async function documentsByKey(
  documents: Documents,
  key: TargetAttribute,
  values: unknown[]
): Promise<(value: unknown) => Promise<string | null>> {
  const one = async (value: unknown) => {
    const found = (await documents.findFirst({ filters: { [key.name]: { $eq: value } } } as never)) as { documentId: string } | null;
    return found?.documentId ?? null;
  };
  if (!MATCHED_AS_TEXT.has(key.scalar) || values.length === 0) return one;
  const rows = (await documents.findMany({ filters: { [key.name]: { $in: values } }, fields: [key.name] } as never)) as Array<
    Record<string, unknown> & { documentId: string }
  >;
  const byKey = new Map<string, string>();
  for (const row of rows) {
    const text = String(row[key.name]);
    if (!byKey.has(text)) byKey.set(text, row.documentId);
  }
  // A value the batch did not find is asked again alone: the database may match what the text does
  // not (MySQL's collations ignore case), and the answer must be the one `findFirst` gives.
  return async (value) => byKey.get(String(value)) ?? one(value);
}
