import type { Core } from '@strapi/strapi';
import type { ContentChange } from '../../platform/services/content-changes';
import type { EventDefinition } from '../../webhooks/events/registry';
import type { PublishableEvent } from '../../webhooks/services/webhooks';

/**
 * A content type whose events keep names and payloads of their own instead of the generic ones
 * every other type gets (definitions.ts, listener.ts): the demo's articles and products, whose
 * subscribers rely on `article.*` carrying the article's UUID and `product.*` the feed's flags.
 * The feature that owns the type adds it (`adaptContentEvents`); the content path asks for an
 * adapter by uid and otherwise goes the generic way, so it names no type itself.
 */
export interface ContentEventAdapter {
  /** Its content type on this site (from the plugin's settings), or undefined where the site has none. */
  uid(strapi: Core.Strapi): string | undefined;
  /** The fields the change listener reads before and after each change, which `events` builds payloads from. */
  fields: string[];
  /** Its events for the catalog. */
  definitions: EventDefinition[];
  /** The events one change announces. */
  events(change: ContentChange): PublishableEvent[];
}

/** Each app's adapters (a test process may boot more than one). */
const added = new WeakMap<object, ContentEventAdapter[]>();

/** Adds an adapter; at register, before any change is made. */
export function adaptContentEvents(strapi: Core.Strapi, adapter: ContentEventAdapter): void {
  const list = added.get(strapi) ?? [];
  list.push(adapter);
  added.set(strapi, list);
}

/**
 * The adapters by the uid each stands for on this site, read when first asked (once every feature
 * has registered); a uid two adapters claim is a mistake of the code, and stops the boot.
 */
export function contentEventAdapters(strapi: Core.Strapi): (uid: string) => ContentEventAdapter | undefined {
  let byUid: Map<string, ContentEventAdapter> | undefined;
  return (uid) => {
    if (!byUid) {
      byUid = new Map();
      for (const adapter of added.get(strapi) ?? []) {
        const claimed = adapter.uid(strapi);
        if (!claimed) continue;
        if (byUid.has(claimed)) throw new Error(`[api-suite] two content event adapters claim ${claimed}`);
        byUid.set(claimed, adapter);
      }
    }
    return byUid.get(uid);
  };
}
