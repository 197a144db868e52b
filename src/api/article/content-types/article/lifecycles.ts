import { randomUUID } from 'node:crypto';

interface Event {
  params: { data: Record<string, unknown> };
}

interface ManyEvent {
  params: { data: Array<Record<string, unknown>> };
}

/** Every article gets a UUID at creation, its public id in /api/v1; it never changes afterwards. */
export default {
  beforeCreate(event: Event) {
    event.params.data.uuid = randomUUID();
  },
  beforeCreateMany(event: ManyEvent) {
    for (const row of event.params.data) row.uuid = randomUUID();
  },
  beforeUpdate(event: Event) {
    delete event.params.data.uuid;
  },
};
