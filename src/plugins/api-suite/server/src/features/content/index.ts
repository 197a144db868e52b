import type { FeatureModule } from '../types';
import { getService } from '../../utils';
import { adaptContentEvents } from './events/adapters';
import { articleEventAdapter } from './events/article-events';
import { contentEventDefinitions } from './events/definitions';
import { keepDraftsPrivate } from './drafts/enforce';
import { answerDraftRefusals } from './drafts/refusal';
import { contentEvents, type ContentEvents } from './events/listener';
import { registerOutboxTable } from './outbox/store';
import { checkContentQueries } from './query-check';
import { contentApiDescription } from './openapi';

/**
 * The site's own content types (docs/webhooks.md#the-sites-own-content): their changes as
 * webhook events with payload schemas read from their Strapi schemas, and their content API in
 * the OpenAPI document, and their drafts are kept for the site's staff. Whatever the site calls
 * them: recipes, listings, courses, or the demo's articles and products.
 */
/** Each app's content events (a test process may boot more than one). */
const eventsOf = new WeakMap<object, ContentEvents>();

const feature: FeatureModule = {
  name: 'content',
  register({ strapi }) {
    registerOutboxTable(strapi);
    // Before the site's own document-service middlewares, which may rewrite the filters it checks.
    checkContentQueries(strapi);
    // The demo's articles keep events of their own; the adapters are read once every feature has added its own.
    adaptContentEvents(strapi, articleEventAdapter);
    // Read once every plugin has registered: another plugin's register may still add attributes.
    getService(strapi, 'webhook-event-types').define(() => contentEventDefinitions(strapi));
    // Their content API (Strapi's REST routes) in the OpenAPI document: read when the document is first built.
    getService(strapi, 'openapi').add(() => contentApiDescription(strapi));
    // Every content type, watched or not: a draft is private whether or not its changes are events.
    keepDraftsPrivate(strapi);
    const events = contentEvents(strapi);
    if (!events) return;
    eventsOf.set(strapi, events);
    getService(strapi, 'content-changes').listen(events.listener);
  },
  bootstrap({ strapi }) {
    // Once the site's own middlewares are in place, so that it runs inside them all.
    answerDraftRefusals(strapi);
    // Publishes what is committed from now on, and what a process that died left in the outbox.
    eventsOf.get(strapi)?.relay.start();
  },
  destroy({ strapi }) {
    eventsOf.get(strapi)?.relay.stop();
  },
};

export default feature;
