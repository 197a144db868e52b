import crypto from 'node:crypto';
import { found, invalid, missing, noSuch } from './errors';
import type { Params } from './form';
import { route, type Route } from './route';
import { listOf, newId, now, type StubContext } from './store';
import type { StubMeter, StubMeterEvent } from './types';

/** Billing meters and meter events: /v1/billing/meters, /v1/billing/meter_events. */

const DAY = 86400;

function createMeter(ctx: StubContext, params: Params): StubMeter {
  params.only('display_name', 'event_name', 'default_aggregation', 'customer_mapping', 'value_settings', 'event_time_window');
  const displayName = params.required('display_name', 250);
  const eventName = params.required('event_name', 100);
  const aggregation = params.object('default_aggregation');
  if (!aggregation) throw missing('default_aggregation');
  const formula = aggregation.only('formula').oneOf('formula', ['sum', 'count', 'last'] as const, true) as 'sum' | 'count' | 'last';
  const mapping = params.object('customer_mapping')?.only('event_payload_key', 'type');
  const customerKey = mapping ? mapping.required('event_payload_key', 100) : 'stripe_customer_id';
  if (mapping) mapping.oneOf('type', ['by_id'] as const, true);
  const valueKey = params.object('value_settings')?.only('event_payload_key').required('event_payload_key', 100) ?? 'value';
  const window = params.oneOf('event_time_window', ['day', 'hour'] as const) ?? null;
  if ([...ctx.store.meters.values()].some((meter) => meter.status === 'active' && meter.event_name === eventName)) {
    throw invalid(`An active meter with event_name \`${eventName}\` already exists.`, 'event_name', 'resource_already_exists');
  }
  const created = now();
  const meter: StubMeter = {
    id: newId('mtr_test_'),
    object: 'billing.meter',
    created,
    customer_mapping: { event_payload_key: customerKey, type: 'by_id' },
    default_aggregation: { formula },
    display_name: displayName,
    event_name: eventName,
    event_time_window: window,
    livemode: false,
    status: 'active',
    status_transitions: { deactivated_at: null },
    updated: created,
    value_settings: { event_payload_key: valueKey },
  };
  ctx.store.meters.set(meter.id, meter);
  return meter;
}

function setStatus(ctx: StubContext, id: string, active: boolean): StubMeter {
  const meter = found(ctx.store.meters.get(id), 'billing meter', id);
  if (
    active &&
    meter.status !== 'active' &&
    [...ctx.store.meters.values()].some((other) => other.status === 'active' && other.event_name === meter.event_name)
  ) {
    throw invalid(`An active meter with event_name \`${meter.event_name}\` already exists.`, 'event_name', 'resource_already_exists');
  }
  meter.status = active ? 'active' : 'inactive';
  meter.status_transitions = { deactivated_at: active ? null : now() };
  meter.updated = now();
  return meter;
}

function createMeterEvent(ctx: StubContext, params: Params): StubMeterEvent {
  params.only('event_name', 'payload', 'identifier', 'timestamp');
  const eventName = params.required('event_name', 100);
  const meter = [...ctx.store.meters.values()].find((candidate) => candidate.status === 'active' && candidate.event_name === eventName);
  if (!meter) throw invalid(`No active meter was found for event_name \`${eventName}\`.`, 'event_name', 'resource_missing');
  const payloadParams = params.object('payload');
  if (!payloadParams) throw missing('payload');
  const payload: Record<string, string> = {};
  for (const key of payloadParams.keys()) payload[key] = payloadParams.required(key);

  const customerKey = meter.customer_mapping.event_payload_key;
  const customer = payloadParams.string(customerKey);
  if (!customer) throw missing(`payload[${customerKey}]`);
  if (!ctx.store.customers.has(customer)) throw noSuch('customer', customer, `payload[${customerKey}]`);
  const valueKey = meter.value_settings.event_payload_key;
  const value = payloadParams.string(valueKey);
  if (value === undefined && meter.default_aggregation.formula !== 'count') throw missing(`payload[${valueKey}]`);
  if (value !== undefined && !/^-?\d+(\.\d+)?$/.test(value)) throw invalid(`Invalid numeric value: ${value}`, `payload[${valueKey}]`);

  const created = now();
  const timestamp = params.int('timestamp') ?? created;
  if (timestamp < created - 35 * DAY || timestamp > created + 300) {
    throw invalid('The timestamp must be within the past 35 calendar days and not more than 5 minutes in the future.', 'timestamp');
  }
  const identifier = params.string('identifier', { max: 100 }) || crypto.randomUUID();
  const recent = ctx.store.meterEvents.some((event) => event.identifier === identifier && event.created > created - DAY);
  if (recent) throw invalid(`A meter event with identifier \`${identifier}\` already exists.`, 'identifier', 'resource_already_exists');

  const event: StubMeterEvent = {
    object: 'billing.meter_event',
    created,
    event_name: eventName,
    identifier,
    livemode: false,
    payload,
    timestamp,
  };
  ctx.store.meterEvents.push(event);
  return event;
}

function listMeters(ctx: StubContext, params: Params) {
  params.only('status', 'limit', 'starting_after', 'ending_before');
  const status = params.oneOf('status', ['active', 'inactive'] as const);
  const meters = [...ctx.store.meters.values()].filter((meter) => !status || meter.status === status);
  return listOf(meters, params, '/v1/billing/meters');
}

export const meteringRoutes: Route[] = [
  route('POST', '/v1/billing/meters', ({ ctx, params }) => createMeter(ctx, params)),
  route('GET', '/v1/billing/meters', ({ ctx, params }) => listMeters(ctx, params)),
  route('GET', '/v1/billing/meters/:id', ({ ctx, ids }) => found(ctx.store.meters.get(ids[0]), 'billing meter', ids[0])),
  route('POST', '/v1/billing/meters/:id', ({ ctx, ids, params }) => {
    const meter = found(ctx.store.meters.get(ids[0]), 'billing meter', ids[0]);
    params.only('display_name');
    meter.display_name = params.string('display_name', { max: 250 }) ?? meter.display_name;
    meter.updated = now();
    return meter;
  }),
  route('POST', '/v1/billing/meters/:id/deactivate', ({ ctx, ids, params }) => (params.only(), setStatus(ctx, ids[0], false))),
  route('POST', '/v1/billing/meters/:id/reactivate', ({ ctx, ids, params }) => (params.only(), setStatus(ctx, ids[0], true))),
  route('POST', '/v1/billing/meter_events', ({ ctx, params }) => createMeterEvent(ctx, params)),
];
