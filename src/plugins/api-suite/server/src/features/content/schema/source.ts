import type { Core } from '@strapi/strapi';
import { contentTypes as strapiContentTypes } from '@strapi/utils';
import type { Attribute, ContentTypeSchema } from '../watched';

/** A component's schema as Strapi holds it, as far as the mapping reads it. */
export interface ComponentSchema {
  uid: string;
  info?: { displayName?: string };
  attributes: Record<string, Attribute>;
}

/**
 * Where the mapping reads the site's schemas from: Strapi's registries at run time (`sourceOf`),
 * plain objects in the tests. The mapping never reads anything else, so it stays pure.
 */
export interface SchemaSource {
  /** Also for `plugin::upload.file` and `plugin::users-permissions.user`. */
  contentType(uid: string): ContentTypeSchema | undefined;
  component(uid: string): ComponentSchema | undefined;
  /** Strapi's own notion of a private attribute: attribute.private === true or listed in the model's privateAttributes (global config api.responses.privateAttributes). */
  isPrivate(model: { uid: string }, attribute: string): boolean;
  /**
   * The Strapi type a custom field stores its value as (`plugin::color-picker.color` → `string`).
   * Strapi rewrites custom fields to their type when it loads the schemas, so this is only asked
   * about an attribute still typed `customField`; without an answer its value is unknown.
   */
  customFieldType?(name: string): string | undefined;
}

/** The running site's schemas. */
export function sourceOf(strapi: Core.Strapi): SchemaSource {
  const types = strapi.contentTypes as unknown as Record<string, ContentTypeSchema>;
  const components = strapi.components as unknown as Record<string, ComponentSchema>;
  const contentType = (uid: string) => (Object.hasOwn(types, uid) ? types[uid] : undefined);
  const component = (uid: string) => (Object.hasOwn(components, uid) ? components[uid] : undefined);
  return {
    contentType,
    component,
    isPrivate(model, attribute) {
      // Strapi's own check, on Strapi's own model object: it reads the global
      // `api.responses.privateAttributes` and the model's options, and caches per model object.
      const schema = contentType(model.uid) ?? component(model.uid) ?? { ...model, attributes: {} };
      return strapiContentTypes.isPrivateAttribute(
        schema as unknown as Parameters<typeof strapiContentTypes.isPrivateAttribute>[0],
        attribute
      );
    },
    customFieldType(name) {
      try {
        return strapi.get<{ get(uid: string): { type?: string } | undefined }>('custom-fields').get(name)?.type;
      } catch {
        // The registry throws for a custom field no plugin registers (its plugin was removed).
        return undefined;
      }
    },
  };
}
