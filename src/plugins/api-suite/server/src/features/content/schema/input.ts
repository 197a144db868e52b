import { z } from 'zod';
import { classify, SYSTEM_FIELDS } from './attributes';
import { scalarSchema } from './scalars';
import type { ComponentSchema, SchemaSource } from './source';

/**
 * The `data` of a content API create or update body (`POST /api/recipes`, `PUT
 * /api/recipes/:documentId`), for the OpenAPI document. Every writable attribute, all optional
 * (an update names only what changes); Strapi refuses keys it does not know, hence strict objects.
 * Private and password attributes are writable even though no answer shows them, so they are here.
 */

export function inputSchema(source: SchemaSource, uid: string): z.ZodObject {
  const schema = source.contentType(uid);
  if (!schema) throw new Error(`Content schema: there is no content type ${uid}`);
  return z.strictObject(inputFields(source, schema, []));
}

const documentId = z.string().meta({ description: "The related document's documentId." });
const documentIds = z.array(documentId);

/** Strapi's ways of writing a relation: the documentIds it should hold, or changes to them. */
const relationInput = z
  .union([
    documentId,
    documentIds,
    z.strictObject({ connect: documentIds.optional(), disconnect: documentIds.optional(), set: documentIds.optional() }),
  ])
  .nullable()
  .meta({ description: 'A documentId, a list of them, or { connect, disconnect, set } lists of them.' });

/**
 * `components`: those the model is nested in (a component inside itself is left out rather
 * than followed for ever). Morph relations are left out, as in every other shape.
 */
function inputFields(source: SchemaSource, model: ComponentSchema, components: string[]): Record<string, z.ZodType> {
  const fields: Record<string, z.ZodType> = {};
  for (const [name, attribute] of Object.entries(model.attributes)) {
    if (SYSTEM_FIELDS.has(name) || attribute.writable === false) continue;
    const kind = classify(source, attribute);
    switch (kind?.kind) {
      case undefined:
        break;
      case 'scalar':
        fields[name] = scalarSchema({ name, ...kind }, 'input')
          .nullable()
          .optional();
        break;
      case 'relation':
        fields[name] = relationInput.optional();
        break;
      case 'media':
        fields[name] = (kind.many ? z.array(z.int()) : z.int().nullable())
          .optional()
          .meta({ description: 'The id of an uploaded file (a list of them when multiple).' });
        break;
      case 'component': {
        const item = componentInput(source, kind.uid, components, false);
        if (item) fields[name] = (kind.repeatable ? z.array(item) : item.nullable()).optional();
        break;
      }
      case 'zone': {
        const [first, ...rest] = kind.uids.flatMap((uid) => componentInput(source, uid, components, true) ?? []);
        fields[name] = z.array(first ? z.discriminatedUnion('__component', [first, ...rest]) : z.never()).optional();
        break;
      }
    }
  }
  return fields;
}

/** A component's entry: its own fields, and `id` to change an entry it already has. */
function componentInput(source: SchemaSource, uid: string, components: string[], inZone: boolean): z.ZodObject | undefined {
  const schema = components.includes(uid) ? undefined : source.component(uid);
  if (!schema) return undefined;
  return z.strictObject({
    ...(inZone ? { __component: z.literal(uid) } : {}),
    id: z.int().optional(),
    ...inputFields(source, { ...schema, uid }, [...components, uid]),
  });
}
