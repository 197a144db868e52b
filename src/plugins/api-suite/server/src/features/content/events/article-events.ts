import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { toIso, toText } from '../../../db';
import { getConfig } from '../../../utils';
import type { ContentChange } from '../../platform/services/content-changes';
import { defineEvent, type EventDefinition } from '../../webhooks/events/registry';
import type { PublishableEvent } from '../../webhooks/services/webhooks';
import type { ContentEventAdapter } from './adapters';

/**
 * The events of the site's articles (`contentTypes.article` in the plugin config), one of the two
 * types the plugin was first specified with: they keep the names and payload their subscribers
 * already rely on (`article.*` carries the article's UUID as `id`), rather than the generic
 * document payload every other type gets.
 */
const at = (description: string) => z.iso.datetime().nullable().meta({ description });

export const articleEventData = z.strictObject({
  id: z.string().meta({ description: "The article's UUID." }),
  title: z.string().nullable(),
  slug: z.string().nullable(),
  status: z.string().nullable().meta({ description: "The article's status, such as draft, published or archived." }),
  createdAt: at('When the article was created.'),
  updatedAt: at('When it last changed.'),
});
export type ArticleEventData = z.infer<typeof articleEventData>;

/** The fields the payload is built from, read before and after each change. */
const ARTICLE_FIELDS = ['documentId', 'uuid', 'title', 'slug', 'status', 'createdAt', 'updatedAt'];

export function articlePayload(row: Record<string, unknown>): ArticleEventData {
  return {
    id: String(row.uuid ?? row.documentId),
    title: toText(row.title),
    slug: toText(row.slug),
    status: toText(row.status),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

const article: ArticleEventData = {
  id: '1b4e28ba-2fa1-4d2b-a9c1-6b0a3f1c9d2e',
  title: 'Hello world',
  slug: 'hello-world',
  status: 'published',
  createdAt: '2026-01-01T12:00:00.000Z',
  updatedAt: '2026-01-01T12:05:00.000Z',
};
const defineArticle = (name: string, description: string, example: ArticleEventData) =>
  defineEvent({ name, description, schema: articleEventData, example, audience: 'everyone', owner: 'content' });
const ARTICLE_EVENTS: EventDefinition[] = [
  defineArticle('article.created', 'An article was created (API or admin panel).', { ...article, status: 'draft' }),
  defineArticle('article.updated', 'An article was changed.', article),
  defineArticle('article.published', "An article's status became published.", article),
  defineArticle('article.unpublished', "An article's status stopped being published (back to draft, or archived).", {
    ...article,
    status: 'archived',
  }),
  defineArticle('article.deleted', 'An article was deleted.', article),
];

/** article.created or .updated, .published when its status became published, .unpublished when it stopped being, .deleted. */
function articleEvents({ action, before, after }: ContentChange): PublishableEvent[] {
  if (action === 'delete') return before ? [{ type: 'article.deleted', payload: articlePayload(before) }] : [];
  if (!after) return [];
  const created = action === 'create' || action === 'clone';
  const payload = articlePayload(after);
  const events: PublishableEvent[] = [{ type: created ? 'article.created' : 'article.updated', payload }];
  if (after.status === 'published' && before?.status !== 'published') events.push({ type: 'article.published', payload });
  if (!created && before?.status === 'published' && after.status !== 'published') events.push({ type: 'article.unpublished', payload });
  return events;
}

export const articleEventAdapter: ContentEventAdapter = {
  uid: (strapi: Core.Strapi) => getConfig(strapi).contentTypes.article,
  fields: ARTICLE_FIELDS,
  definitions: ARTICLE_EVENTS,
  events: articleEvents,
};

declare module '../../webhooks/events/registry' {
  interface EventPayloads {
    'article.created': ArticleEventData;
    'article.updated': ArticleEventData;
    'article.published': ArticleEventData;
    'article.unpublished': ArticleEventData;
    'article.deleted': ArticleEventData;
  }
}
