import { PLUGIN_ID } from '../constants';

/**
 * `pluginOptions` of the plugin's content types. Their schemas belong to the plugin, so the
 * content-type builder never edits them. In the Content Manager:
 * - `editable` types are editors' to change (the plugin reacts to their changes);
 * - `internal` types are not shown at all: records only the plugin writes (API keys, usage, a
 *   scraper's runs and results, the engine's bookkeeping), which its own pages show. Strapi gives
 *   a type it does not show no create, update, delete or publish action, so no role, the super
 *   admin's included, can write them through the Content Manager's routes either.
 *
 * Each names the feature whose admin permissions govern its records (`permission`): the plugin's
 * records are not content, so a role sees a type in the Content Manager only with the feature's
 * `read` and writes there only with its `manage`, whatever Content Manager permissions it holds
 * (see record-permissions).
 */
export type GoverningFeature = 'access' | 'webhooks' | 'scrapers' | 'sales';

export interface ApiSuiteTypeOptions {
  /** The feature whose `plugin::api-suite.<feature>.read|manage` actions govern the type's records. */
  permission: GoverningFeature;
}

export const editable = (permission: GoverningFeature) => ({
  'content-manager': { visible: true },
  'content-type-builder': { visible: false },
  [PLUGIN_ID]: { permission } satisfies ApiSuiteTypeOptions,
});

export const internal = (permission: GoverningFeature) => ({
  'content-manager': { visible: false },
  'content-type-builder': { visible: false },
  [PLUGIN_ID]: { permission } satisfies ApiSuiteTypeOptions,
});

/** The plugin's own options of a content type, when it declares any. */
export function apiSuiteOptions(contentType: { pluginOptions?: object }): Partial<ApiSuiteTypeOptions> | undefined {
  return (contentType.pluginOptions as Record<string, Partial<ApiSuiteTypeOptions> | undefined> | undefined)?.[PLUGIN_ID];
}
