import { planDocument, type ComponentPlan, type DocumentPlan, type FieldPlan } from './plan';
import { normalizeScalar } from './scalars';
import type { SchemaSource } from './source';

/**
 * From a document read through Strapi's document service to a content event's data: what to
 * read (`populateFor`) and what to keep of it (`project`). The result fits
 * `documentSchema(source, uid, depth)`: every key there, nothing else, values normalised.
 */

/**
 * The `populate` of `strapi.documents(uid).findOne({ documentId, populate })` that reads all
 * `project` keeps: relations and media not filled in as `{ fields: ['documentId'] }`, those filled
 * in with their own populate, components at their document's depth, dynamic zones per component.
 */
export function populateFor(source: SchemaSource, uid: string, depth: number): Record<string, unknown> {
  return populateOf(planDocument(source, uid, depth).fields);
}

/** The event data of `doc` (a document of `uid` read with `populateFor(source, uid, depth)`). */
export function project(source: SchemaSource, uid: string, depth: number, doc: Record<string, unknown>): Record<string, unknown> {
  return projectDocument(planDocument(source, uid, depth), doc);
}

function populateOf(fields: FieldPlan[]): Record<string, unknown> {
  const populate: Record<string, unknown> = {};
  for (const field of fields) {
    switch (field.kind) {
      case 'scalar':
        break;
      case 'relation':
        // `id` comes with every populated entry; naming `documentId` keeps the other columns unread.
        populate[field.name] = field.document ? nested(populateOf(field.document.fields)) : { fields: ['documentId'] };
        break;
      case 'component':
        populate[field.name] = nested(populateOf(field.component.fields));
        break;
      case 'zone':
        populate[field.name] = { on: Object.fromEntries(field.components.map((plan) => [plan.uid, nested(populateOf(plan.fields))])) };
        break;
    }
  }
  return populate;
}

/** `true` (all its columns, nothing beyond) when the target has nothing of its own to populate. */
function nested(populate: Record<string, unknown>): unknown {
  return Object.keys(populate).length > 0 ? { populate } : true;
}

function projectDocument(plan: DocumentPlan, doc: Record<string, unknown>): Record<string, unknown> {
  return {
    ...identity(plan.uid, doc),
    ...projectFields(plan.fields, doc),
    createdAt: timestamp(plan.uid, doc, 'createdAt'),
    updatedAt: timestamp(plan.uid, doc, 'updatedAt'),
    publishedAt: normalizeDateTime(doc.publishedAt),
    locale: plan.localized && typeof doc.locale === 'string' ? doc.locale : null,
  };
}

function projectComponent(plan: ComponentPlan, value: Record<string, unknown>, inZone: boolean): Record<string, unknown> {
  return { ...(inZone ? { __component: plan.uid } : {}), id: integerId(plan.uid, value.id), ...projectFields(plan.fields, value) };
}

function projectFields(fields: FieldPlan[], doc: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field.name, projectField(field, doc[field.name])]));
}

function projectField(field: FieldPlan, value: unknown): unknown {
  switch (field.kind) {
    case 'scalar':
      return normalizeScalar(field, value);
    case 'relation': {
      const target = field.target ?? field.name;
      const item = (related: Record<string, unknown>) =>
        field.document ? projectDocument(field.document, related) : identity(target, related);
      return field.many ? objects(value).map(item) : isRecord(value) ? item(value) : null;
    }
    case 'component': {
      const item = (entry: Record<string, unknown>) => projectComponent(field.component, entry, false);
      return field.repeatable ? objects(value).map(item) : isRecord(value) ? item(value) : null;
    }
    case 'zone': {
      const plans = new Map(field.components.map((plan) => [plan.uid, plan]));
      // An entry of a component since removed from the zone has no schema to be written in: left out.
      return objects(value).flatMap((entry) => {
        const plan = plans.get(String(entry.__component));
        return plan ? [projectComponent(plan, entry, true)] : [];
      });
    }
  }
}

/**
 * A document without its id or documentId (or timestamps) was not read through the document
 * service: an error, rather than data that would not be what it says.
 */
function identity(uid: string, doc: Record<string, unknown>): { id: number; documentId: string } {
  if (typeof doc.documentId !== 'string') throw new Error(`Content schema: a document of ${uid} has no documentId`);
  return { id: integerId(uid, doc.id), documentId: doc.documentId };
}

function integerId(uid: string, value: unknown): number {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new Error(`Content schema: an entry of ${uid} has no integer id`);
  return id;
}

function timestamp(uid: string, doc: Record<string, unknown>, key: 'createdAt' | 'updatedAt'): string {
  const value = normalizeDateTime(doc[key]);
  if (value === null) throw new Error(`Content schema: a document of ${uid} has no ${key}`);
  return value;
}

function normalizeDateTime(value: unknown): string | null {
  return normalizeScalar({ name: 'datetime', scalar: 'datetime', type: 'datetime', values: [] }, value) as string | null;
}

/** The entries of a list (null or missing: none), keeping only objects. */
function objects(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
