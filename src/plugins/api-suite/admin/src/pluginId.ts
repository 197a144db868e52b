export const PLUGIN_ID = 'api-suite';
