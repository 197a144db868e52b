/**
 * `pluginOptions` of the plugin's content types. Their schemas belong to the plugin, so the
 * content-type builder never edits them; `editable` ones are shown to editors in the content
 * manager, `internal` ones (engine bookkeeping) are not.
 */
export const editable = {
  'content-manager': { visible: true },
  'content-type-builder': { visible: false },
};

export const internal = {
  'content-manager': { visible: false },
  'content-type-builder': { visible: false },
};
