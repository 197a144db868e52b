import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { documentId } from '../../../random';
import { fromJson, tableOf, toBool } from '../../../db';
import { EVENT_CATALOG, WILDCARD } from '../events/catalog';
import { eventDataJsonSchema, isEventName, payloadProblems } from '../validation/event-data';
import type { EventType as ContractEventType } from '../validation/responses';

/** An event type as `GET /api/webhooks/event-types` lists it: the response schema's type. */
export type EventType = ContractEventType;

export interface EventTypePatch {
  description?: string;
  example_payload?: unknown;
  is_active?: boolean;
}

/** Active types are read on every subscription write and publish, so they are cached briefly. */
const CACHE_TTL_MS = 5_000;

const eventTypesService = ({ strapi }: { strapi: Core.Strapi }) => {
  let cached: { types: Map<string, EventType>; until: number } | undefined;
  const table = () => tableOf(strapi, UIDS.webhookEventType);

  const active = async (): Promise<Map<string, EventType>> => {
    if (cached && cached.until > Date.now()) return cached.types;
    const rows = await strapi.db.connection(table()).select('name', 'description', 'example_payload', 'is_active').orderBy('name', 'asc');
    const types = new Map<string, EventType>();
    for (const row of rows as Array<Record<string, unknown>>) {
      if (!toBool(row.is_active)) continue;
      const name = String(row.name);
      types.set(name, {
        name,
        description: String(row.description ?? ''),
        example_payload: fromJson<unknown>(row.example_payload, null),
        schema: schemaOf(name),
      });
    }
    cached = { types, until: Date.now() + CACHE_TTL_MS };
    return types;
  };

  return {
    /**
     * Creates the catalogue's missing types; an editor's changes to existing ones are kept, except
     * an example that no longer fits its event's schema (an older release's), which is replaced.
     */
    async ensureDefaults(): Promise<number> {
      const knex = strapi.db.connection;
      const rows = (await knex(table()).select('name', 'example_payload')) as Array<{ name: string; example_payload: unknown }>;
      const existing = new Set(rows.map((row) => row.name));
      const now = new Date();
      for (const row of rows) {
        const entry = EVENT_CATALOG.find((type) => type.name === row.name);
        if (!entry || payloadProblems(row.name, fromJson<unknown>(row.example_payload, null), '').length === 0) continue;
        await knex(table())
          .where({ name: row.name })
          .update({ example_payload: JSON.stringify(entry.example_payload), updated_at: now });
        strapi.log.info(
          `[api-suite] webhooks: the example payload of ${row.name} did not fit its schema and was replaced by the catalog's`
        );
      }
      const missing = EVENT_CATALOG.filter((type) => !existing.has(type.name)).map((type) => ({
        document_id: documentId(),
        name: type.name,
        description: type.description,
        example_payload: JSON.stringify(type.example_payload),
        is_active: true,
        created_at: now,
        updated_at: now,
        published_at: now,
      }));
      if (missing.length > 0) await knex(table()).insert(missing);
      this.forget();
      return missing.length;
    },

    /** Every type, switched off ones included, for the admin panel. */
    async listAll(): Promise<Array<EventType & { is_active: boolean }>> {
      const rows = (await strapi.db
        .connection(table())
        .select('name', 'description', 'example_payload', 'is_active')
        .orderBy('name', 'asc')) as Array<Record<string, unknown>>;
      return rows.map(present);
    },

    /** Describe a type differently, change its example, or switch it on or off; null when it does not exist. */
    async update(name: string, patch: EventTypePatch): Promise<(EventType & { is_active: boolean }) | null> {
      const changes: Record<string, unknown> = { updated_at: new Date() };
      if (patch.description !== undefined) changes.description = patch.description;
      if (patch.example_payload !== undefined) changes.example_payload = JSON.stringify(patch.example_payload);
      if (patch.is_active !== undefined) changes.is_active = patch.is_active;
      const updated = await strapi.db.connection(table()).where({ name }).update(changes);
      this.forget();
      if (updated === 0) return null;
      const row = (await strapi.db
        .connection(table())
        .select('name', 'description', 'example_payload', 'is_active')
        .where({ name })
        .first()) as Record<string, unknown> | undefined;
      return row ? present(row) : null;
    },

    async listActive(): Promise<EventType[]> {
      return [...(await active()).values()];
    },

    async isActive(name: string): Promise<boolean> {
      return (await active()).has(name);
    },

    /** The names that are neither an active event type nor the wildcard, in the order given. */
    async unknown(names: string[]): Promise<string[]> {
      const types = await active();
      return names.filter((name) => name !== WILDCARD && !types.has(name));
    },

    forget(): void {
      cached = undefined;
    },
  };
};

function present(row: Record<string, unknown>): EventType & { is_active: boolean } {
  const name = String(row.name);
  return {
    name,
    description: String(row.description ?? ''),
    example_payload: fromJson<unknown>(row.example_payload, null),
    schema: schemaOf(name),
    is_active: toBool(row.is_active),
  };
}

const schemas = new Map<string, Record<string, unknown>>();

/** An event's data schema, generated once per name; a name without one (none today) accepts any JSON. */
function schemaOf(name: string): Record<string, unknown> {
  let schema = schemas.get(name);
  if (!schema) {
    schema = isEventName(name) ? eventDataJsonSchema(name) : {};
    schemas.set(name, schema);
  }
  return schema;
}

export type WebhookEventTypesService = ReturnType<typeof eventTypesService>;
export default eventTypesService;
