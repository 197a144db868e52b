import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, flattened with its service's name. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean | unknown[]>;
  status: { code?: number; message?: string };
  /** The span's events (an exception's message and stack among them), with their attributes. */
  events: Array<{ name: string; attributes: Record<string, string | number | boolean | unknown[]> }>;
}

export interface OtlpReceiver {
  /** The base URL for `OTEL_EXPORTER_OTLP_ENDPOINT` (the exporter adds `/v1/traces`). */
  url: string;
  spans: ReceivedSpan[];
  close: () => Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
}

interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: AnyValue }> };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: Array<{ key: string; value: AnyValue }>;
        status?: { code?: number; message?: string };
        events?: Array<{ name: string; attributes?: Array<{ key: string; value: AnyValue }> }>;
      }>;
    }>;
  }>;
}

/**
 * A local OpenTelemetry collector's front door: `POST /v1/traces` with the OTLP/HTTP JSON
 * encoding (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`), as a real collector takes it. Anything
 * else, or a body that is not an export request, is refused as a collector would.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (
        request.method !== 'POST' ||
        request.url !== '/v1/traces' ||
        !String(request.headers['content-type']).startsWith('application/json')
      ) {
        response.writeHead(404).end();
        return;
      }
      let body: ExportRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
      } catch {
        response.writeHead(400).end();
        return;
      }
      for (const resourceSpans of body.resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              service: String(resource['service.name']),
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              status: span.status ?? {},
              events: (span.events ?? []).map((event) => ({ name: event.name, attributes: attributesOf(event.attributes) })),
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function attributesOf(list: Array<{ key: string; value: AnyValue }> | undefined): ReceivedSpan['attributes'] {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));
}

function valueOf(value: AnyValue): string | number | boolean | unknown[] {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return '';
}
