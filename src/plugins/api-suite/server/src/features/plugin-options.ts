/**
 * `pluginOptions` of the plugin's content types. Their schemas belong to the plugin, so the
 * content-type builder never edits them. In the Content Manager:
 * - `editable` types are editors' to change (the plugin reacts to their changes);
 * - `readOnly` types are shown, to look at and filter, but nobody creates, changes or deletes
 *   their entries there: the engine writes them (see content-manager-access);
 * - `internal` types are not shown at all: engine bookkeeping, which the plugin's own pages show.
 */
export const editable = {
  'content-manager': { visible: true },
  'content-type-builder': { visible: false },
};

export const readOnly = {
  'content-manager': { visible: true },
  'content-type-builder': { visible: false },
  'api-suite': { readOnly: true },
};

export const internal = {
  'content-manager': { visible: false },
  'content-type-builder': { visible: false },
};
