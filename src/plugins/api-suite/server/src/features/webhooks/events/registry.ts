import { z } from 'zod';
import { fieldProblems, type FieldProblem } from '../../../http/errors';

/**
 * The event definitions every feature registers with the webhooks feature (docs/webhooks.md#event-types):
 * the catalog is the sum of what is registered, and the webhooks feature itself knows no other
 * feature's events. A definition's zod schema is the one description of its payload: the builders
 * that publish it are typed by it, an administrator's publish is checked against it, and the
 * catalog's JSON Schema is generated from it.
 */

/**
 * Who may receive an event: every subscriber of its type; only the consumers each publish names
 * (events about one consumer's own resources: their runs, orders, billing, which administrators
 * may be named beside); or exactly one consumer, the one it is about (their quota, their
 * endpoints' health), whatever any other subscription's `events` say. Publishing a `named` event
 * without naming anyone, or a `consumer` event to anyone but one consumer, is a programming error
 * and refused; administrators cannot publish `consumer` events by hand.
 *
 * `staff`: events about drafts (a draft & publish type's `created` and `updated`), which only the
 * site's staff (administrators and the roles it names as draft readers) receive, whatever a
 * consumer's subscription says.
 */
export type EventAudience = 'everyone' | 'named' | 'consumer' | 'staff';

/** Whether an administrator may publish a type by hand (it would reach every subscriber of the type). */
export function publishableByHand(definition: Pick<EventDefinition, 'audience'>): boolean {
  return definition.audience !== 'consumer';
}

export interface EventDefinition {
  name: string;
  description: string;
  schema: z.ZodType;
  example: unknown;
  audience: EventAudience;
  /** Who registered it (a feature's name, or `content` for the site's own types), for the logs. */
  owner: string;
}

/**
 * Event names to payload types. Empty here: each feature adds its own events by declaration
 * merging from the module that defines them, so `publish` is typed without this module importing
 * any feature.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface EventPayloads {}

export type KnownEventName = keyof EventPayloads;

/** An event of a known name with its typed payload. */
export type PublishableEvent = { [T in KnownEventName]: { type: T; payload: EventPayloads[T] } }[KnownEventName];

/** A definition whose example is checked against its schema by the compiler. */
export function defineEvent<S extends z.ZodType>(definition: {
  name: string;
  description: string;
  schema: S;
  example: z.output<S>;
  audience: EventAudience;
  owner: string;
}): EventDefinition {
  return definition;
}

/** Definitions given at once, or later (the site's content types are read once every plugin has registered). */
export type DefinitionSource = EventDefinition[] | (() => EventDefinition[]);

/**
 * The registered definitions of one app. A name registered twice keeps its first definition and
 * the second is reported (a site content type named like one of the plugin's own events, such as
 * `order`, must not replace the plugin's `order.created`).
 */
export class EventRegistry {
  private readonly sources: DefinitionSource[] = [];
  private resolved: Map<string, EventDefinition> | undefined;
  private readonly jsonSchemas = new Map<string, Record<string, unknown>>();
  private readonly conflicts: string[] = [];

  constructor(private readonly onConflict: (message: string) => void = () => undefined) {}

  define(source: DefinitionSource): void {
    this.sources.push(source);
    this.resolved = undefined;
    this.jsonSchemas.clear();
  }

  all(): EventDefinition[] {
    return [...this.map().values()];
  }

  get(name: string): EventDefinition | undefined {
    return this.map().get(name);
  }

  has(name: string): boolean {
    return this.map().has(name);
  }

  /** The JSON Schema (draft 2020-12) of an event's data, as the server writes it; `{}` for an unknown name. */
  jsonSchema(name: string): Record<string, unknown> {
    let schema = this.jsonSchemas.get(name);
    if (!schema) {
      const definition = this.get(name);
      schema = definition
        ? {
            ...(z.toJSONSchema(definition.schema, { target: 'draft-2020-12', io: 'output' }) as Record<string, unknown>),
            title: `${name} data`,
          }
        : {};
      this.jsonSchemas.set(name, schema);
    }
    return schema;
  }

  /** The problems of a payload against its event's schema, each with its path under `prefix` (none for an unknown name). */
  problems(name: string, payload: unknown, prefix: string): FieldProblem[] {
    const definition = this.get(name);
    if (!definition) return [];
    const result = definition.schema.safeParse(payload);
    return result.success ? [] : fieldProblems(result.error, prefix);
  }

  private map(): Map<string, EventDefinition> {
    if (this.resolved) return this.resolved;
    const resolved = new Map<string, EventDefinition>();
    for (const source of this.sources) {
      for (const definition of typeof source === 'function' ? source() : source) {
        const existing = resolved.get(definition.name);
        if (existing) {
          const message = `the event ${definition.name} of ${definition.owner} is left out: ${existing.owner} defines it already`;
          if (!this.conflicts.includes(message)) {
            this.conflicts.push(message);
            this.onConflict(message);
          }
          continue;
        }
        resolved.set(definition.name, definition);
      }
    }
    this.resolved = resolved;
    return resolved;
  }
}
