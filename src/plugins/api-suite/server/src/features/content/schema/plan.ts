import type { ContentTypeSchema } from '../watched';
import { classify, clampDepth, describedTarget, SYSTEM_FIELDS, UPLOAD_FILE } from './attributes';
import type { ScalarField } from './scalars';
import type { ComponentSchema, SchemaSource } from './source';

/**
 * What a content event carries of a type's documents at a depth, decided once: which attributes
 * are there, and how far relations, media and components are filled in. `documentSchema`,
 * `project`, `populateFor` and `exampleDocument` all walk this plan, so they agree by
 * construction rather than by four copies of the rules.
 */

export interface DocumentPlan {
  uid: string;
  /** `locale` is the version's locale; null on a type without i18n. */
  localized: boolean;
  fields: FieldPlan[];
}

export interface ComponentPlan {
  uid: string;
  fields: FieldPlan[];
}

export type FieldPlan =
  | ({ kind: 'scalar' } & ScalarField)
  | {
      kind: 'relation';
      name: string;
      /** A media field: its target is `plugin::upload.file`. */
      media: boolean;
      many: boolean;
      target: string | undefined;
      /** The related document's plan, or undefined where only `{ id, documentId }` is carried. */
      document: DocumentPlan | undefined;
    }
  | { kind: 'component'; name: string; repeatable: boolean; component: ComponentPlan }
  | { kind: 'zone'; name: string; components: ComponentPlan[] };

/** The plan of `uid`'s documents with relations filled `depth` levels deep (0..3). */
export function planDocument(source: SchemaSource, uid: string, depth: number): DocumentPlan {
  const schema = source.contentType(uid);
  if (!schema) throw new Error(`Content schema: there is no content type ${uid}`);
  return documentPlan(source, schema, clampDepth(depth));
}

function documentPlan(source: SchemaSource, schema: ContentTypeSchema, depth: number): DocumentPlan {
  return { uid: schema.uid, localized: schema.pluginOptions?.i18n?.localized === true, fields: fieldPlans(source, schema, depth, []) };
}

/**
 * A model's fields at `depth`. Each relation takes one level (so recursion ends, however the
 * types relate to each other); a component is part of its document and stays at its depth,
 * `components` being the ones it is nested in (Strapi forbids a component inside itself, and
 * one that is would be left out rather than followed for ever).
 */
function fieldPlans(source: SchemaSource, model: ComponentSchema, depth: number, components: string[]): FieldPlan[] {
  // A file's own relations (the documents using it, its folder) are the media library's, not the content's.
  const relations = model.uid !== UPLOAD_FILE;
  const fields: FieldPlan[] = [];
  for (const [name, attribute] of Object.entries(model.attributes)) {
    if (SYSTEM_FIELDS.has(name) || source.isPrivate(model, name)) continue;
    const kind = classify(source, attribute);
    switch (kind?.kind) {
      case undefined:
        break;
      case 'scalar':
        if (kind.scalar !== 'password') fields.push({ kind: 'scalar', name, scalar: kind.scalar, type: kind.type, values: kind.values });
        break;
      case 'relation':
      case 'media': {
        if (!relations) break;
        const target = kind.kind === 'media' ? UPLOAD_FILE : kind.target;
        const related = depth > 0 ? describedTarget(source, target) : undefined;
        const document = related && documentPlan(source, related, depth - 1);
        fields.push({ kind: 'relation', name, media: kind.kind === 'media', many: kind.many, target, document });
        break;
      }
      case 'component': {
        const component = componentPlan(source, kind.uid, depth, components);
        if (component) fields.push({ kind: 'component', name, repeatable: kind.repeatable, component });
        break;
      }
      case 'zone': {
        const plans = kind.uids.map((uid) => componentPlan(source, uid, depth, components));
        fields.push({ kind: 'zone', name, components: plans.filter((plan): plan is ComponentPlan => plan !== undefined) });
        break;
      }
    }
  }
  return fields;
}

/** Undefined for a component the site does not have (or one nested in itself). */
function componentPlan(source: SchemaSource, uid: string, depth: number, components: string[]): ComponentPlan | undefined {
  const schema = components.includes(uid) ? undefined : source.component(uid);
  return schema && { uid, fields: fieldPlans(source, { ...schema, uid }, depth, [...components, uid]) };
}
