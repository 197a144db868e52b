import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { documentId } from '../../../random';
import { fromJson, tableOf, toBool } from '../../../db';
import type { FieldProblem } from '../../../http/errors';
import { isPrefixPattern, patternMatches, WEBHOOK_EVENTS, WILDCARD } from '../events/catalog';
import { EventRegistry, publishableByHand, type DefinitionSource, type EventDefinition } from '../events/registry';
import type { AdminEventType, EventType as ContractEventType } from '../validation/responses';

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
  /** The stored rows, in name order: every one, or the one called `name`. */
  const rowsOf = async (name?: string): Promise<Array<Record<string, unknown>>> => {
    const query = strapi.db.connection(table()).select('name', 'description', 'example_payload', 'is_active');
    if (name !== undefined) query.where({ name });
    return (await query.orderBy('name', 'asc')) as Array<Record<string, unknown>>;
  };
  const registry = new EventRegistry((message) => strapi.log.warn(`[api-suite] webhooks: ${message}`));
  registry.define(WEBHOOK_EVENTS);
  const schemaOf = (name: string) => registry.jsonSchema(name);
  const present = (row: Record<string, unknown>): AdminEventType => {
    const name = String(row.name);
    const definition = registry.get(name);
    return {
      name,
      description: String(row.description ?? ''),
      example_payload: fromJson<unknown>(row.example_payload, null),
      schema: schemaOf(name),
      audience: definition?.audience ?? 'everyone',
      is_active: toBool(row.is_active),
      publishable: definition !== undefined && publishableByHand(definition),
    };
  };

  const active = async (): Promise<Map<string, EventType>> => {
    if (cached && cached.until > Date.now()) return cached.types;
    const types = new Map<string, EventType>();
    for (const row of await rowsOf()) {
      // A stored type nobody defines any more (a content type removed from the site or from
      // `webhooks.contentTypes`) is kept with its editor's changes, but not offered.
      if (!toBool(row.is_active) || !registry.has(String(row.name))) continue;
      const name = String(row.name);
      types.set(name, {
        name,
        description: String(row.description ?? ''),
        example_payload: fromJson<unknown>(row.example_payload, null),
        schema: schemaOf(name),
        audience: registry.get(name)?.audience ?? 'everyone',
      });
    }
    cached = { types, until: Date.now() + CACHE_TTL_MS };
    return types;
  };

  return {
    /**
     * Register event definitions (at a feature's register; a function is read once every feature
     * has registered). The catalog is the sum of what is registered.
     */
    define(source: DefinitionSource): void {
      registry.define(source);
      cached = undefined;
    },

    definition(name: string): EventDefinition | undefined {
      return registry.get(name);
    },

    definitions(): EventDefinition[] {
      return registry.all();
    },

    /** The JSON Schema of an event's data (`{}` for an unknown name). */
    jsonSchema(name: string): Record<string, unknown> {
      return schemaOf(name);
    },

    /** The problems of a payload against its event's schema, with paths under `prefix`. */
    payloadProblems(name: string, payload: unknown, prefix: string): FieldProblem[] {
      return registry.problems(name, payload, prefix);
    },

    /**
     * Creates the catalogue's missing types; an editor's changes to existing ones are kept, except
     * an example that no longer fits its event's schema (an older release's), which is replaced.
     */
    async ensureDefaults(): Promise<number> {
      const knex = strapi.db.connection;
      const rows = (await knex(table()).select('name', 'example_payload')) as Array<{ name: string; example_payload: unknown }>;
      const existing = new Set(rows.map((row) => row.name));
      const now = new Date();
      const definitions = registry.all();
      for (const row of rows) {
        const entry = registry.get(row.name);
        if (!entry || registry.problems(row.name, fromJson<unknown>(row.example_payload, null), '').length === 0) continue;
        // An older release's example, or a content type whose fields changed since.
        await knex(table())
          .where({ name: row.name })
          .update({ example_payload: JSON.stringify(entry.example), updated_at: now });
        strapi.log.info(
          `[api-suite] webhooks: the example payload of ${row.name} did not fit its schema and was replaced by the catalog's`
        );
      }
      const missing = definitions
        .filter((type) => !existing.has(type.name))
        .map((type) => ({
          document_id: documentId(),
          name: type.name,
          description: type.description,
          example_payload: JSON.stringify(type.example),
          is_active: true,
          created_at: now,
          updated_at: now,
          published_at: now,
        }));
      // In slices: a site with many content types registers five events for each.
      for (let start = 0; start < missing.length; start += 100) await knex(table()).insert(missing.slice(start, start + 100));
      this.forget();
      return missing.length;
    },

    /** Every type, switched off ones included, for the admin panel. */
    async listAll(): Promise<Array<AdminEventType>> {
      return (await rowsOf()).filter((row) => registry.has(String(row.name))).map(present);
    },

    /** One type as the admin panel lists it (switched off or not), or null: none by that name, or one nobody defines any more. */
    async get(name: string): Promise<AdminEventType | null> {
      if (!registry.has(name)) return null;
      const [row] = await rowsOf(name);
      return row ? present(row) : null;
    },

    /** Describe a type differently, change its example, or switch it on or off; null when it does not exist. */
    async update(name: string, patch: EventTypePatch): Promise<AdminEventType | null> {
      const changes: Record<string, unknown> = { updated_at: new Date() };
      if (patch.description !== undefined) changes.description = patch.description;
      if (patch.example_payload !== undefined) changes.example_payload = JSON.stringify(patch.example_payload);
      if (patch.is_active !== undefined) changes.is_active = patch.is_active;
      const updated = await strapi.db.connection(table()).where({ name }).update(changes);
      this.forget();
      if (updated === 0) return null;
      const [row] = await rowsOf(name);
      return row ? present(row) : null;
    },

    async listActive(): Promise<EventType[]> {
      return [...(await active()).values()];
    },

    async isActive(name: string): Promise<boolean> {
      return (await active()).has(name);
    },

    /**
     * The `events` entries that name no active type, in the order given: neither a type, nor `*`,
     * nor a prefix pattern (`recipe.*`) that some active type falls under.
     */
    async unknown(names: string[]): Promise<string[]> {
      const types = await active();
      return names.filter((name) => {
        if (name === WILDCARD || types.has(name)) return false;
        return !isPrefixPattern(name) || ![...types.keys()].some((type) => patternMatches(name, type));
      });
    },

    /** The active types a subscription's `events` name, each with the JSON Schema of its data (to check a filter against). */
    async receivedBy(entries: string[]): Promise<Array<{ name: string; schema: Record<string, unknown> }>> {
      const types = await active();
      return [...types.values()]
        .filter((type) => entries.some((entry) => patternMatches(entry, type.name)))
        .map((type) => ({ name: type.name, schema: type.schema }));
    },

    /** An active type as the catalog lists it (its example as an editor left it), or undefined. */
    async activeType(name: string): Promise<EventType | undefined> {
      return (await active()).get(name);
    },

    forget(): void {
      cached = undefined;
    },
  };
};

export type WebhookEventTypesService = ReturnType<typeof eventTypesService>;
export default eventTypesService;
