import { z } from 'zod';

const counts = z.record(z.string(), z.int().min(0));

/** Admin panel: what the Overview shows of this process, the headline figures of its metrics. */
export const activity = z.object({
  since: z.iso.datetime().meta({ description: 'Where the counts start: an hour ago, or when this process started if that is later.' }),
  deliveries: counts.meta({ description: 'Delivery attempts settled since then, by outcome.' }),
  requests: counts.meta({ description: 'Requests the access middleware decided on since then, by decision.' }),
  backlog: counts.meta({ description: 'Deliveries not yet settled, now (from the database).' }),
  saturatedEndpoints: z.int().min(0).meta({ description: "Endpoints whose share of this process's request slots is all in use, now." }),
});
export type Activity = z.infer<typeof activity>;
