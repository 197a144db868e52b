import {
  context,
  createContextKey,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

/**
 * What the rest of the plugin uses to trace (docs/operations.md#traces): spans of its own work and
 * the trace context a delivery carries from its publish. Everything here is a no-op that costs a
 * boolean test while tracing is off (no `OTEL_EXPORTER_OTLP_ENDPOINT`): the SDK is only loaded
 * and started by `sdk.ts` when it is on.
 */

const TRACER_NAME = 'strapi-plugin-api-suite';
const w3c = new W3CTraceContextPropagator();
let on = false;

/** Set by the SDK's start and stop; nothing else turns tracing on. */
export function setTracingOn(value: boolean): void {
  on = value;
}

export function tracingOn(): boolean {
  return on;
}

/** A span of the plugin's own work, child of what is active; undefined while tracing is off. */
export function startSpan(name: string, attributes?: Attributes, kind: SpanKind = SpanKind.INTERNAL, parent?: Context): Span | undefined {
  if (!on) return undefined;
  return trace.getTracer(TRACER_NAME).startSpan(name, { kind, attributes }, parent ?? context.active());
}

/** Run `fn` with `span` active, so what it does (queries, requests) becomes the span's children. */
export function withSpan<T>(span: Span | undefined, fn: () => T): T {
  if (!span) return fn();
  return context.with(trace.setSpan(context.active(), span), fn);
}

/** End a span as failed, with the failure's message. */
export function failSpan(span: Span | undefined, error: unknown): void {
  if (!span) return;
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

const setter: TextMapSetter<Record<string, string>> = { set: (carrier, key, value) => (carrier[key] = value) };
const getter: TextMapGetter<Record<string, string>> = {
  get: (carrier, key) => carrier[key],
  keys: (carrier) => Object.keys(carrier),
};

/**
 * The W3C `traceparent` of a span (or of what is active), to store with work that another
 * process may do later: a delivery keeps its publish's, so that every attempt, on any worker
 * and after any restart, joins the publish's trace. Undefined while tracing is off.
 */
export function traceparentOf(span?: Span): string | undefined {
  if (!on) return undefined;
  const carrier: Record<string, string> = {};
  w3c.inject(span ? trace.setSpan(context.active(), span) : context.active(), carrier, setter);
  return carrier.traceparent;
}

/** The context a stored `traceparent` names (the root context when there is none or it is malformed). */
export function contextOf(traceparent: string | null | undefined): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return w3c.extract(ROOT_CONTEXT, { traceparent }, getter);
}

/**
 * Trace context is sent out only where this key is set in the active context. Outbound requests
 * go to consumers' endpoints and to sites being scraped: a `traceparent` would hand them our
 * trace ids and our sampling decision, and link their traces to ours. Webhook receivers get it
 * only when the operator turns `WEBHOOK_SEND_TRACEPARENT` on.
 */
const SEND_TRACE_CONTEXT = createContextKey('api-suite: send trace context');

export function sendingTraceContext<T>(fn: () => T): T {
  return context.with(context.active().setValue(SEND_TRACE_CONTEXT, true), fn);
}

/**
 * The process's propagator: incoming `traceparent` is always honoured (a caller's trace goes on
 * in ours); outgoing requests carry one only inside `sendingTraceContext`.
 */
export class OutboundGatedPropagator implements TextMapPropagator {
  inject(ctx: Context, carrier: unknown, carrierSetter: TextMapSetter): void {
    if (ctx.getValue(SEND_TRACE_CONTEXT) === true) w3c.inject(ctx, carrier, carrierSetter);
  }

  extract(ctx: Context, carrier: unknown, carrierGetter: TextMapGetter): Context {
    return w3c.extract(ctx, carrier, carrierGetter);
  }

  fields(): string[] {
    return w3c.fields();
  }
}

export { SpanKind, SpanStatusCode, type Span };
