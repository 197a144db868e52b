import type { Core } from '@strapi/strapi';
import type { EventDefinition } from '../../webhooks/events/registry';
import { documentSchema, exampleDocument, sourceOf } from '../schema';
import { watchedTypes, type WatchedType } from '../watched';
import { contentEventAdapters } from './adapters';

/**
 * The event definitions of the site's content types, read from their Strapi schemas once every
 * plugin has registered (a field added in the Content-Type Builder is in them after the restart
 * Strapi makes). Each type's events share one payload schema, from the same attribute mapping
 * as the OpenAPI document's.
 */
export function contentEventDefinitions(strapi: Core.Strapi): EventDefinition[] {
  const source = sourceOf(strapi);
  const adapterOf = contentEventAdapters(strapi);
  return watchedTypes(strapi).flatMap((type) => {
    const adapter = adapterOf(type.uid);
    if (adapter) return adapter.definitions;
    const schema = documentSchema(source, type.uid, type.depth);
    const example = exampleDocument(source, type.uid, type.depth);
    return actionsOf(type).map(({ action, description }) => ({
      name: `${type.singularName}.${action}`,
      description,
      schema,
      example: exampleFor(example, type, action),
      // A draft & publish type's created and updated are about its draft: the site's staff only.
      audience: type.draftAndPublish && (action === 'created' || action === 'updated') ? ('staff' as const) : ('everyone' as const),
      owner: 'content',
    }));
  });
}

function actionsOf(type: WatchedType): Array<{ action: string; description: string }> {
  const name = type.displayName;
  // "An Author", "A Recipe": the article goes by the sound of the name's first letter, as near as a letter tells.
  const what = type.kind === 'singleType' ? `The ${name}` : `${/^[aeiou]/i.test(name) ? 'An' : 'A'} ${name}`;
  const locale = type.localized ? ' (one event per locale)' : '';
  return [
    {
      action: 'created',
      description: `${what} was created${type.draftAndPublish ? " as a draft (the site's staff only)" : ''}${locale}.`,
    },
    {
      action: 'updated',
      description: `${what} was changed${type.draftAndPublish ? ": its draft, or a draft discarded (the site's staff only)" : ''}${locale}.`,
    },
    ...(type.draftAndPublish
      ? [
          { action: 'published', description: `${what} was published${locale}: the payload is the published version.` },
          { action: 'unpublished', description: `${what} was unpublished${locale}: the payload is the version that was published.` },
        ]
      : []),
    {
      action: 'deleted',
      description: `${what} was deleted${locale}: the payload is the document as the content API showed it${type.draftAndPublish ? " (a document never published: the site's staff only)" : ''}.`,
    },
  ];
}

/** The type's example as each event would carry it: a draft has no publication date. */
function exampleFor(example: Record<string, unknown>, type: WatchedType, action: string): Record<string, unknown> {
  if (!type.draftAndPublish) return example;
  const draft = action === 'created' || action === 'updated';
  return { ...example, publishedAt: draft ? null : (example.publishedAt ?? example.updatedAt ?? null) };
}
