import type { Core } from '@strapi/strapi';
import { getConfig } from '../../utils';

/**
 * The site's own content types the plugin works with: every `api::` collection and single type,
 * unless the plugin config `webhooks.contentTypes` names a narrower list (`[]`: none). Their
 * changes are webhook events, their content API can be sold through plans (`@content`), and the
 * OpenAPI document describes them. Read from Strapi's schemas, so a type the plugin has never
 * seen (a site's recipes, listings, courses) is handled like the demo's own.
 */
export interface WatchedType {
  /** `api::recipe.recipe` */
  uid: string;
  /** `recipe`: the events' prefix (`recipe.published`). */
  singularName: string;
  /** `recipes` */
  pluralName: string;
  displayName: string;
  kind: 'collectionType' | 'singleType';
  draftAndPublish: boolean;
  /** Localized with i18n: one event per locale version, and `locale` in the content API. */
  localized: boolean;
  /** Where Strapi's content API serves it: `/api/recipes` for a collection, `/api/recipe` for a single type. */
  basePath: string;
  /** How deep relations, media and components are filled in its events' payloads (`webhooks.populate`, default 1). */
  depth: number;
}

/** The shape of a content type's schema as Strapi holds it, as far as the plugin reads it. */
export interface ContentTypeSchema {
  uid: string;
  kind?: string;
  modelType?: string;
  info: { singularName: string; pluralName: string; displayName?: string; description?: string };
  options?: { draftAndPublish?: boolean };
  pluginOptions?: { i18n?: { localized?: boolean } };
  attributes: Record<string, Attribute>;
}

/** One attribute of a content type or component, as Strapi's schema holds it. */
export interface Attribute {
  type: string;
  required?: boolean;
  private?: boolean;
  writable?: boolean;
  visible?: boolean;
  enum?: string[];
  multiple?: boolean;
  relation?: string;
  target?: string;
  component?: string;
  components?: string[];
  repeatable?: boolean;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  allowedTypes?: string[];
  [key: string]: unknown;
}

export const DEFAULT_DEPTH = 1;

/** The watched types, in UID order. */
export function watchedTypes(strapi: Core.Strapi): WatchedType[] {
  const settings = getConfig(strapi).webhooks;
  const narrowed = settings.contentTypes ? new Set(settings.contentTypes) : undefined;
  const i18n = Boolean(strapi.plugin('i18n'));
  return Object.values(strapi.contentTypes as unknown as Record<string, ContentTypeSchema>)
    .filter((schema) => schema.uid.startsWith('api::') && (!narrowed || narrowed.has(schema.uid)))
    .sort((a, b) => a.uid.localeCompare(b.uid))
    .map((schema) => describeType(schema, i18n, settings.populate));
}

export function describeType(schema: ContentTypeSchema, i18n: boolean, populate: Record<string, number>): WatchedType {
  const kind = schema.kind === 'singleType' ? 'singleType' : 'collectionType';
  const { singularName, pluralName } = schema.info;
  return {
    uid: schema.uid,
    singularName,
    pluralName,
    displayName: schema.info.displayName ?? singularName,
    kind,
    draftAndPublish: schema.options?.draftAndPublish === true,
    localized: i18n && schema.pluginOptions?.i18n?.localized === true,
    basePath: `/api/${kind === 'singleType' ? singularName : pluralName}`,
    depth: populate[schema.uid] ?? populate[singularName] ?? DEFAULT_DEPTH,
  };
}
