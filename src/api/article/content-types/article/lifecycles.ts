import { randomUUID } from 'node:crypto';
import { freeSlug } from '../../../../lib/slug';

interface Event {
  params: { data: Record<string, unknown> };
}

interface ManyEvent {
  params: { data: Array<Record<string, unknown>> };
}

/**
 * Every article gets a UUID at creation, its public id in /api/v1, which never changes; and a
 * slug from its title when it was saved without one (the admin panel lets an editor leave it
 * empty), so the slug the API promises is always there.
 */
export default {
  async beforeCreate(event: Event) {
    event.params.data.uuid = randomUUID();
    const { slug, title } = event.params.data;
    if ((slug === undefined || slug === null || slug === '') && typeof title === 'string') {
      event.params.data.slug = await freeSlug(strapi, 'api::article.article', title, 'article');
    }
  },
  beforeCreateMany(event: ManyEvent) {
    for (const row of event.params.data) row.uuid = randomUUID();
  },
  beforeUpdate(event: Event) {
    delete event.params.data.uuid;
  },
};
