import type { Attribute, ContentTypeSchema } from '../watched';
import type { SchemaSource } from './source';

/**
 * What one attribute of a Strapi schema is, for every shape built from it (events, the content
 * API's answers and inputs): a scalar of some kind, a relation, media, a component or a dynamic
 * zone. The one place that reads Strapi's attribute types, so the shapes cannot disagree on them.
 */

/** How deep relations are ever followed: each level multiplies a payload by its relations. */
export const MAX_DEPTH = 3;

export const UPLOAD_FILE = 'plugin::upload.file';

/**
 * Fields Strapi keeps on every document that are not the site's attributes: the shapes write
 * the identity and timestamps themselves, and never the creator fields (admin users),
 * `localizations` (every other locale's version) or `locale` as an attribute.
 */
export const SYSTEM_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'documentId',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'locale',
  'createdBy',
  'updatedBy',
  'localizations',
]);

export type ScalarKind =
  | 'string'
  | 'enumeration'
  | 'blocks'
  | 'integer'
  | 'biginteger'
  | 'number'
  | 'boolean'
  | 'date'
  | 'time'
  | 'datetime'
  | 'json'
  | 'password'
  | 'unknown';

export type AttributeKind =
  | { kind: 'scalar'; scalar: ScalarKind; type: string; values: string[] }
  | { kind: 'relation'; target: string | undefined; many: boolean }
  | { kind: 'media'; many: boolean }
  | { kind: 'component'; uid: string; repeatable: boolean }
  | { kind: 'zone'; uids: string[] };

/**
 * The attribute's kind, or undefined for one no shape carries: morph relations (`morphToOne`,
 * `morphToMany`, `morphOne`, `morphMany`) are left out everywhere, as their targets are any
 * type and a payload could not be described by one schema.
 */
export function classify(source: SchemaSource, attribute: Attribute): AttributeKind | undefined {
  const type =
    attribute.type === 'customField' ? (source.customFieldType?.(String(attribute.customField)) ?? 'customField') : attribute.type;
  switch (type) {
    case 'relation':
      if (MORPH_RELATIONS.has(String(attribute.relation))) return undefined;
      return { kind: 'relation', target: attribute.target, many: TO_MANY.has(String(attribute.relation)) };
    case 'media':
      return { kind: 'media', many: attribute.multiple === true };
    case 'component':
      return attribute.component ? { kind: 'component', uid: attribute.component, repeatable: attribute.repeatable === true } : undefined;
    case 'dynamiczone':
      return { kind: 'zone', uids: attribute.components ?? [] };
    default:
      return { kind: 'scalar', scalar: Object.hasOwn(SCALARS, type) ? SCALARS[type] : 'unknown', type, values: attribute.enum ?? [] };
  }
}

/**
 * The schema of `target` where a relation to it may carry the related document's content: the site's own types
 * and media files. Users, admin users and other plugins' types are only ever `{ id, documentId }`,
 * so a webhook or an answer never leaks a user's e-mail.
 */
export function describedTarget(source: SchemaSource, target: string | undefined): ContentTypeSchema | undefined {
  return target !== undefined && (target.startsWith('api::') || target === UPLOAD_FILE) ? source.contentType(target) : undefined;
}

/** 0..MAX_DEPTH, whatever the configuration says. */
export function clampDepth(depth: number): number {
  return Number.isFinite(depth) ? Math.min(MAX_DEPTH, Math.max(0, Math.trunc(depth))) : 0;
}

const MORPH_RELATIONS = new Set(['morphToOne', 'morphToMany', 'morphOne', 'morphMany']);
const TO_MANY = new Set(['oneToMany', 'manyToMany', 'manyWay']);

const SCALARS: Record<string, ScalarKind> = {
  string: 'string',
  text: 'string',
  richtext: 'string',
  email: 'string',
  uid: 'string',
  enumeration: 'enumeration',
  blocks: 'blocks',
  integer: 'integer',
  biginteger: 'biginteger',
  float: 'number',
  decimal: 'number',
  boolean: 'boolean',
  date: 'date',
  time: 'time',
  datetime: 'datetime',
  timestamp: 'datetime',
  json: 'json',
  password: 'password',
};
