import type { Core } from '@strapi/strapi';
import { InvalidTargetError } from '../errors';
import { classify, SYSTEM_FIELDS, type AttributeKind, type ScalarKind } from '../../content/schema/attributes';
import { sourceOf } from '../../content/schema';
import type { ContentTypeSchema } from '../../content/watched';
import type { ScraperTargetSetting } from '../validation/requests';
import type { ScraperSelectors } from '../validation';

/** The scalar kinds an item's text can be brought to (`coerce.ts`); the others cannot be filled by a scraper. */
const FILLABLE: ReadonlySet<ScalarKind> = new Set([
  'string',
  'enumeration',
  'blocks',
  'integer',
  'biginteger',
  'number',
  'boolean',
  'date',
  'time',
  'datetime',
  'json',
]);

/** Kinds that cannot tell documents apart: a rich body, a structure, a yes or no. */
const NOT_A_KEY: ReadonlySet<ScalarKind> = new Set(['blocks', 'json', 'boolean']);

/** One attribute a target fills, as the run writes it. */
export interface TargetAttribute {
  name: string;
  /** The item field that fills it. */
  field: string;
  scalar: ScalarKind;
  /** Strapi's type (`richtext`, `uid`, `decimal`…). */
  type: string;
  /** An enumeration's values. */
  values: string[];
  required: boolean;
}

/** A checked target with its content type's facts: what a run needs to write. */
export interface ResolvedTarget {
  setting: ScraperTargetSetting;
  draftAndPublish: boolean;
  key: TargetAttribute;
  attributes: TargetAttribute[];
}

/**
 * The fields an item of a scraper has: its selectors' fields, or `url` and `title` without
 * selectors; `url` (the page the item came from) is there in both cases.
 */
export function itemFieldsOf(selectors: ScraperSelectors | null): string[] {
  return selectors ? [...new Set([...Object.keys(selectors.fields), 'url'])] : ['url', 'title'];
}

/**
 * Check a target against the site's schema and the scraper's item fields, refusing it as the API
 * does (422 invalid_target naming the `path` of the fault); answers what a run needs to write.
 */
export function resolveTarget(strapi: Core.Strapi, setting: ScraperTargetSetting, itemFields: string[]): ResolvedTarget {
  const source = sourceOf(strapi);
  const schema = setting.type.startsWith('api::') ? source.contentType(setting.type) : undefined;
  if (!schema) throw invalid('target.type', `${setting.type} is not one of the site's content types (api::…)`);
  if (schema.kind !== 'collectionType')
    throw invalid('target.type', `${setting.type} is a single type: it has one document, and items have many`);
  const draftAndPublish = schema.options?.draftAndPublish === true;
  if (!draftAndPublish && setting.removed === 'unpublish')
    throw invalid('target.removed', `${setting.type} has no draft & publish, so its documents cannot be unpublished`);

  const attributes = Object.entries(setting.fields).map(([name, field]) =>
    fillable(schema, name, field, itemFields, (kind) => classify(source, kind))
  );
  const key = attributes.find((attribute) => attribute.name === setting.key);
  if (!key) {
    if (!Object.hasOwn(schema.attributes, setting.key) || SYSTEM_FIELDS.has(setting.key))
      throw invalid('target.key', `${setting.key} is not an attribute of ${setting.type}`);
    throw invalid('target.key', `the key ${setting.key} must be one of the attributes in target.fields, so that items give its value`);
  }
  if (NOT_A_KEY.has(key.scalar)) throw invalid('target.key', `${setting.key} is a ${key.type} attribute, which cannot identify a document`);

  // A document the scraper creates must be valid: a required attribute without a default needs an item field.
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    if (SYSTEM_FIELDS.has(name) || attribute.required !== true || attribute.default !== undefined) continue;
    if (!Object.hasOwn(setting.fields, name))
      throw invalid(`target.fields.${name}`, `${name} is required by ${setting.type}: map an item field to it`);
  }
  return { setting, draftAndPublish, key, attributes };
}

/** One mapped attribute, or the refusal that names it. */
function fillable(
  schema: ContentTypeSchema,
  name: string,
  field: string,
  itemFields: string[],
  kindOf: (attribute: ContentTypeSchema['attributes'][string]) => AttributeKind | undefined
): TargetAttribute {
  const path = `target.fields.${name}`;
  const attribute = Object.hasOwn(schema.attributes, name) && !SYSTEM_FIELDS.has(name) ? schema.attributes[name] : undefined;
  if (!attribute) throw invalid(path, `${name} is not an attribute of ${schema.uid}`);
  const kind = kindOf(attribute);
  if (!kind || kind.kind !== 'scalar' || !FILLABLE.has(kind.scalar)) {
    const what = kind && kind.kind !== 'scalar' ? KIND_NAMES[kind.kind] : `a ${attribute.type} attribute`;
    throw invalid(path, `${name} is ${what}, which a scraped item cannot fill`);
  }
  if (!itemFields.includes(field)) throw invalid(path, `${field} is not one of the items' fields (${itemFields.join(', ')})`);
  return { name, field, scalar: kind.scalar, type: kind.type, values: kind.values, required: attribute.required === true };
}

/**
 * The content types a target may name, with the attributes an item can fill, for the admin
 * panel's form: the site's own collection types (`api::…`), each attribute with whether it may
 * be the key and whether a created document needs it. What the form offers is what `resolveTarget`
 * accepts; the server still checks what is sent.
 */
export function targetTypesOf(strapi: Core.Strapi): TargetType[] {
  const source = sourceOf(strapi);
  const types = Object.keys(strapi.contentTypes as object).filter((uid) => uid.startsWith('api::'));
  return types.flatMap((uid) => {
    const schema = source.contentType(uid);
    if (!schema || schema.kind !== 'collectionType') return [];
    const attributes = Object.entries(schema.attributes).flatMap(([name, attribute]) => {
      if (SYSTEM_FIELDS.has(name)) return [];
      const kind = classify(source, attribute);
      if (!kind || kind.kind !== 'scalar' || !FILLABLE.has(kind.scalar)) return [];
      return [
        {
          name,
          type: kind.type,
          key_allowed: !NOT_A_KEY.has(kind.scalar),
          required: attribute.required === true && attribute.default === undefined,
        },
      ];
    });
    if (attributes.length === 0) return [];
    return [
      {
        uid,
        name: schema.info.displayName ?? schema.info.singularName,
        draft_and_publish: schema.options?.draftAndPublish === true,
        attributes,
      },
    ];
  });
}

/** A content type as the form offers it (`targetTypesOf`). */
export interface TargetType {
  uid: string;
  name: string;
  draft_and_publish: boolean;
  attributes: Array<{ name: string; type: string; key_allowed: boolean; required: boolean }>;
}

const KIND_NAMES: Record<Exclude<AttributeKind['kind'], 'scalar'>, string> = {
  relation: 'a relation',
  media: 'a media attribute',
  component: 'a component',
  zone: 'a dynamic zone',
};

function invalid(path: string, message: string): InvalidTargetError {
  return new InvalidTargetError(path, message);
}
