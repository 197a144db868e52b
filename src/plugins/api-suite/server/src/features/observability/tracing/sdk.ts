import { createRequire } from 'node:module';
import type { IncomingMessage } from 'node:http';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type * as SdkNode from '@opentelemetry/sdk-node';
import type * as Http from '@opentelemetry/instrumentation-http';
import type * as IORedis from '@opentelemetry/instrumentation-ioredis';
import type * as Undici from '@opentelemetry/instrumentation-undici';
import { OutboundGatedPropagator, setTracingOn } from './context';
import { loadLazily } from './lazy';
import { otlpTraceExporter, RedactingSpanExporter } from './redaction';

/**
 * The OpenTelemetry SDK for Node (docs/operations.md#traces), started only when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or its traces-only form) is set; everything else is the SDK's
 * own environment: `OTEL_EXPORTER_OTLP_PROTOCOL` (`http/protobuf`, `http/json` or `grpc`),
 * `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER` and the rest.
 *
 * Instrumented by OpenTelemetry's own packages: every HTTP request the server answers (an
 * incoming `traceparent` honoured) and every outbound request (undici for webhooks and
 * scrapers, Node's http for Stripe), and Redis commands (ioredis) made inside a trace. Database
 * queries are traced from knex's query events (`database.ts`), which see SQLite and PostgreSQL
 * alike whenever the plugin starts.
 *
 * Spans are exported over OTLP only, through `RedactingSpanExporter`: API keys are cut out of
 * every attribute, name and event first, as they are out of log lines.
 *
 * The SDK, its instrumentations and exporters are loaded when tracing starts, never otherwise:
 * about a second and 12 MB of heap that a site without an exporter does not spend at boot.
 */

interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

/** Probes and scrapes, several a minute from every load balancer and Prometheus: never worth a trace. */
const UNTRACED_PATHS = new Set(['/_health', '/_ready', '/metrics']);

let sdk: NodeSDK | undefined;

export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return (
    Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) &&
    env.OTEL_SDK_DISABLED !== 'true' &&
    // The SDK's own way to export no spans; any other exporter than OTLP is not offered.
    env.OTEL_TRACES_EXPORTER?.trim() !== 'none'
  );
}

/** Start the SDK once per process, if configured. */
export function startTracing(log: Logger): void {
  if (sdk || !tracingConfigured()) return;
  // Spans only: the plugin's metrics are Prometheus's (`/metrics`) and its logs Strapi's. An
  // operator who wants the SDK's OTLP metrics or logs too sets these variables.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  process.env.OTEL_SERVICE_NAME ??= 'strapi-api-suite';
  const { NodeSDK } = loadLazily<typeof SdkNode>('@opentelemetry/sdk-node');
  const { HttpInstrumentation } = loadLazily<typeof Http>('@opentelemetry/instrumentation-http');
  const { IORedisInstrumentation } = loadLazily<typeof IORedis>('@opentelemetry/instrumentation-ioredis');
  const { UndiciInstrumentation } = loadLazily<typeof Undici>('@opentelemetry/instrumentation-undici');
  sdk = new NodeSDK({
    // The SDK batches (OTEL_BSP_* apply) and hands each batch to the redaction, then to OTLP.
    traceExporter: new RedactingSpanExporter(otlpTraceExporter()),
    textMapPropagator: new OutboundGatedPropagator(),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) => UNTRACED_PATHS.has((request.url ?? '').split('?')[0]),
      }),
      new UndiciInstrumentation(),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  // Strapi and this plugin loaded `http` and `ioredis` before the SDK could start. The
  // instrumentations patch a module on its next `require` (the objects are shared, so classes
  // and servers made earlier are patched too): require them once more, from this plugin's own
  // place, so that they resolve to the copies it uses.
  const load = createRequire(__filename);
  for (const name of ['node:http', 'node:https', 'ioredis']) load(name);
  setTracingOn(true);
  log.info(
    `[api-suite] tracing: spans exported to ${process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_ENDPOINT} as ${process.env.OTEL_SERVICE_NAME}`
  );
}

/** Export what is buffered and stop (the process is shutting down). */
export async function stopTracing(log: Logger): Promise<void> {
  if (!sdk) return;
  const stopping = sdk;
  sdk = undefined;
  setTracingOn(false);
  try {
    await stopping.shutdown();
  } catch (error) {
    log.warn(`[api-suite] tracing: spans not exported at shutdown: ${(error as Error).message}`);
  }
}
