import type { Attributes, AttributeValue, Link } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type * as GrpcExporter from '@opentelemetry/exporter-trace-otlp-grpc';
import type * as JsonExporter from '@opentelemetry/exporter-trace-otlp-http';
import type * as ProtobufExporter from '@opentelemetry/exporter-trace-otlp-proto';
import type { tracing } from '@opentelemetry/sdk-node';
import { loadLazily } from './lazy';
import { redactSecrets } from '../../../http/redact';

/**
 * Spans leave the process through the same redaction as log lines (`redactSecrets`): a key sent
 * as `?api_key=` or `client_secret=`, or pasted into a path, would otherwise be exported whole in
 * the HTTP instrumentation's `url.query` and `url.path` (and in `url.full` of an outbound request,
 * a span's name, its status message or an exception's message and stack). Every string the
 * exporter would send is passed through it, whoever recorded the span.
 */
export class RedactingSpanExporter implements tracing.SpanExporter {
  constructor(private readonly inner: tracing.SpanExporter) {}

  export(spans: tracing.ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.inner.export(spans.map(redactSpan), resultCallback);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush ? this.inner.forceFlush() : Promise.resolve();
  }
}

/**
 * The OTLP exporter for `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` or `OTEL_EXPORTER_OTLP_PROTOCOL`
 * (`http/protobuf` unless set), as the SDK would pick it; each reads its endpoint, headers and
 * timeout from the environment itself.
 */
export function otlpTraceExporter(env: NodeJS.ProcessEnv = process.env): tracing.SpanExporter {
  const variable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = (env[variable] || 'http/protobuf').trim();
  switch (protocol) {
    case 'grpc':
      return new (loadLazily<typeof GrpcExporter>('@opentelemetry/exporter-trace-otlp-grpc').OTLPTraceExporter)();
    case 'http/json':
      return new (loadLazily<typeof JsonExporter>('@opentelemetry/exporter-trace-otlp-http').OTLPTraceExporter)();
    case 'http/protobuf':
      return new (loadLazily<typeof ProtobufExporter>('@opentelemetry/exporter-trace-otlp-proto').OTLPTraceExporter)();
    default:
      throw new Error(`${variable} must be http/protobuf, http/json or grpc, not "${protocol}"`);
  }
}

/** A copy of `span` with every string in it redacted; the span itself, still held by its processors, is left alone. */
export function redactSpan(span: tracing.ReadableSpan): tracing.ReadableSpan {
  return {
    name: redactSecrets(span.name),
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status.message === undefined ? span.status : { ...span.status, message: redactSecrets(span.status.message) },
    attributes: redactAttributes(span.attributes),
    links: span.links.map((link): Link => (link.attributes ? { ...link, attributes: redactAttributes(link.attributes) } : link)),
    events: span.events.map((event) => (event.attributes ? { ...event, attributes: redactAttributes(event.attributes) } : event)),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

function redactAttributes(attributes: Attributes): Attributes {
  const redacted: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) redacted[key] = redactValue(value);
  return redacted;
}

function redactValue(value: AttributeValue | undefined): AttributeValue | undefined {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value) && value.some((item) => typeof item === 'string')) {
    return (value as Array<string | null | undefined>).map((item) => (typeof item === 'string' ? redactSecrets(item) : item));
  }
  return value;
}
