import { z } from 'zod';
import { planDocument, type ComponentPlan, type DocumentPlan, type FieldPlan } from './plan';
import { scalarSchema } from './scalars';
import type { SchemaSource } from './source';

/**
 * A document as the content API answers it (`data` of `GET /api/recipes/:documentId`), for the
 * OpenAPI document. The same attributes as an event's, but the `fields` and `populate` query
 * parameters choose what is there, so every property is optional and objects are loose.
 *
 * Relations, media and components are described one level deep (what `populate` names
 * directly), with the related document's own relations as loose references: any deeper
 * `populate` still fits, and the schema needs no recursion (which the OpenAPI document's
 * converter could not name) however the types relate to each other.
 */

export function answerSchema(source: SchemaSource, uid: string): z.ZodObject {
  return answerDocument(planDocument(source, uid, 1));
}

const dateTime = z.iso.datetime();

/** A related document not described further: what `populate` gave of it. */
const answerReference = z.looseObject({ id: z.int().optional(), documentId: z.string().optional() });

function answerDocument(plan: DocumentPlan): z.ZodObject {
  return z.looseObject({
    id: z.int().optional().meta({ description: "The document's id (changes when a draft-and-publish document is published)." }),
    documentId: z.string().optional().meta({ description: "The document's stable id: the same across its versions and locales." }),
    ...answerFields(plan.fields),
    createdAt: dateTime.optional(),
    updatedAt: dateTime.optional(),
    publishedAt: dateTime.nullable().optional().meta({ description: 'When this version was published; null for a draft.' }),
    ...(plan.localized ? { locale: z.string().optional().meta({ description: "This version's locale." }) } : {}),
  });
}

function answerComponent(plan: ComponentPlan, inZone: boolean): z.ZodObject {
  return z.looseObject({
    ...(inZone ? { __component: z.literal(plan.uid) } : {}),
    id: z.int().optional(),
    ...answerFields(plan.fields),
  });
}

function answerFields(fields: FieldPlan[]): Record<string, z.ZodType> {
  return Object.fromEntries(fields.map((field) => [field.name, answerField(field).optional()]));
}

function answerField(field: FieldPlan): z.ZodType {
  switch (field.kind) {
    case 'scalar':
      return scalarSchema(field, 'output').nullable();
    case 'relation': {
      const item = field.document ? answerDocument(field.document) : answerReference;
      return field.many ? z.array(item) : item.nullable();
    }
    case 'component': {
      const item = answerComponent(field.component, false);
      return field.repeatable ? z.array(item) : item.nullable();
    }
    case 'zone': {
      const [first, ...rest] = field.components.map((plan) => answerComponent(plan, true));
      return z.array(first ? z.discriminatedUnion('__component', [first, ...rest]) : z.never());
    }
  }
}
