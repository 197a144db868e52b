import { PLUGIN_ID } from '../constants';

/**
 * `pluginOptions` of the plugin's content types. Their schemas belong to the plugin, so the
 * content-type builder never edits them. In the Content Manager:
 * - `editable` types are editors' to change (the plugin reacts to their changes);
 * - `readOnly` types are shown, to look at and filter, but nobody creates, changes or deletes
 *   their entries there: the engine writes them (see content-manager-access);
 * - `internal` types are not shown at all: engine bookkeeping, which the plugin's own pages show.
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
  /** No Content Manager write action applies to the type, for any role. */
  readOnly?: true;
}

export const editable = (permission: GoverningFeature) => ({
  'content-manager': { visible: true },
  'content-type-builder': { visible: false },
  [PLUGIN_ID]: { permission } satisfies ApiSuiteTypeOptions,
});

export const readOnly = (permission: GoverningFeature) => ({
  'content-manager': { visible: true },
  'content-type-builder': { visible: false },
  [PLUGIN_ID]: { permission, readOnly: true } satisfies ApiSuiteTypeOptions,
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
