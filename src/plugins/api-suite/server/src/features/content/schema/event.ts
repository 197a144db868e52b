import { z } from 'zod';
import { planDocument, type ComponentPlan, type DocumentPlan, type FieldPlan } from './plan';
import { EXAMPLE_DATETIME, exampleScalar, scalarSchema } from './scalars';
import type { SchemaSource } from './source';

/**
 * A document as a content event carries it (`recipe.published`'s data): the schema its JSON
 * Schema in the event catalog comes from, and an example that fits it. Objects are strict, so
 * the catalog says `additionalProperties: false` and a subscriber knows every key it can get.
 */

/** The event data of `uid`'s documents, relations filled `depth` (0..3) levels deep. */
export function documentSchema(source: SchemaSource, uid: string, depth: number): z.ZodObject {
  return documentObject(planDocument(source, uid, depth));
}

/** A document fitting `documentSchema(source, uid, depth)`, the same on every call. */
export function exampleDocument(source: SchemaSource, uid: string, depth: number): Record<string, unknown> {
  return exampleOf(planDocument(source, uid, depth));
}

/** `{ id, documentId }`: a related document the event does not fill in. */
const reference = z.strictObject({ id: z.int(), documentId: z.string() });

const dateTime = z.iso.datetime();

function documentObject(plan: DocumentPlan): z.ZodObject {
  return z.strictObject({
    id: z.int().meta({ description: "The document's id (changes when a draft-and-publish document is published)." }),
    documentId: z.string().meta({ description: "The document's stable id: the same across its versions and locales." }),
    ...fieldSchemas(plan.fields),
    createdAt: dateTime.meta({ description: 'When the document was created.' }),
    updatedAt: dateTime.meta({ description: 'When it last changed.' }),
    publishedAt: dateTime.nullable().meta({ description: 'When this version was published; null for a draft.' }),
    locale: z
      .string()
      .nullable()
      .meta({ description: plan.localized ? "This version's locale." : 'Always null: the type is not localized.' }),
  });
}

function componentObject(plan: ComponentPlan, inZone: boolean): z.ZodObject {
  return z.strictObject({
    ...(inZone ? { __component: z.literal(plan.uid) } : {}),
    id: z.int(),
    ...fieldSchemas(plan.fields),
  });
}

function fieldSchemas(fields: FieldPlan[]): Record<string, z.ZodType> {
  return Object.fromEntries(fields.map((field) => [field.name, fieldSchema(field)]));
}

/** Every value may be null (a draft may lack required fields), except lists, which are empty instead. */
function fieldSchema(field: FieldPlan): z.ZodType {
  switch (field.kind) {
    case 'scalar':
      return scalarSchema(field, 'output').nullable();
    case 'relation': {
      const item = field.document ? documentObject(field.document) : reference;
      const what = field.media ? (field.many ? 'Media files' : 'A media file') : `Related ${field.target ?? 'documents'}`;
      const filled = field.document ? '' : ' (id and documentId only)';
      return (field.many ? z.array(item) : item.nullable()).meta({ description: `${what}${filled}.` });
    }
    case 'component': {
      const item = componentObject(field.component, false);
      return field.repeatable ? z.array(item) : item.nullable();
    }
    case 'zone':
      return z.array(zoneItem(field.components)).meta({ description: 'A dynamic zone: components told apart by `__component`.' });
  }
}

function zoneItem(components: ComponentPlan[]): z.ZodType {
  const [first, ...rest] = components.map((plan) => componentObject(plan, true));
  return first ? z.discriminatedUnion('__component', [first, ...rest]) : z.never();
}

function exampleOf(plan: DocumentPlan): Record<string, unknown> {
  return {
    id: 1,
    documentId: exampleDocumentId(plan.uid),
    ...exampleFields(plan.fields),
    createdAt: EXAMPLE_DATETIME,
    updatedAt: EXAMPLE_DATETIME,
    publishedAt: EXAMPLE_DATETIME,
    locale: plan.localized ? 'en' : null,
  };
}

function exampleComponent(plan: ComponentPlan, inZone: boolean): Record<string, unknown> {
  return { ...(inZone ? { __component: plan.uid } : {}), id: 1, ...exampleFields(plan.fields) };
}

function exampleFields(fields: FieldPlan[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field.name, exampleField(field)]));
}

function exampleField(field: FieldPlan): unknown {
  switch (field.kind) {
    case 'scalar':
      return exampleScalar(field);
    case 'relation': {
      const item = field.document ? exampleOf(field.document) : { id: 1, documentId: exampleDocumentId(field.target ?? field.name) };
      return field.many ? [item] : item;
    }
    case 'component': {
      const item = exampleComponent(field.component, false);
      return field.repeatable ? [item] : item;
    }
    case 'zone':
      return field.components.slice(0, 1).map((plan) => exampleComponent(plan, true));
  }
}

/** 24 lower-case letters and digits, like Strapi's own, derived from the type so each has its own. */
function exampleDocumentId(seed: string): string {
  let hash = 2166136261;
  let id = '';
  while (id.length < 24) {
    for (const char of `${seed}${id.length}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
    id += hash.toString(36);
  }
  return id.slice(0, 24);
}
