import type { FeatureModule } from '../types';
import { getService } from '../../utils';
import { contentEventDefinitions } from './events/definitions';
import { contentEventsListener } from './events/listener';
import { contentApiDescription } from './openapi';

/**
 * The site's own content types (docs/webhooks.md#the-sites-own-content): their changes as
 * webhook events with payload schemas read from their Strapi schemas, and their content API in
 * the OpenAPI document. Whatever the site calls them: recipes, listings, courses, or the demo's
 * articles and products.
 */
const feature: FeatureModule = {
  name: 'content',
  register({ strapi }) {
    // Read once every plugin has registered: another plugin's register may still add attributes.
    getService(strapi, 'webhook-event-types').define(() => contentEventDefinitions(strapi));
    // Their content API (Strapi's REST routes) in the OpenAPI document: read when the document is first built.
    getService(strapi, 'openapi').add(() => contentApiDescription(strapi));
    const listener = contentEventsListener(strapi);
    if (listener) getService(strapi, 'content-changes').listen(listener);
  },
};

export default feature;
