import { shapeLogLines } from '../../src/plugins/api-suite/server/src/features/observability/log-lines';
import { requestIdOf } from '../../src/plugins/api-suite/server/src/features/observability/middlewares/request-id';
import { newDeliveryId } from '../../src/plugins/api-suite/server/src/features/webhooks/delivery/ids';
import { publishedAt } from '../../src/plugins/api-suite/server/src/features/webhooks/delivery/metrics';
import { context, ROOT_CONTEXT, trace, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { tracing } from '@opentelemetry/sdk-node';
import { otlpTraceExporter, RedactingSpanExporter } from '../../src/plugins/api-suite/server/src/features/observability/tracing/redaction';
import {
  contextOf,
  OutboundGatedPropagator,
  sendingTraceContext,
  setTracingOn,
  startSpan,
  traceparentOf,
} from '../../src/plugins/api-suite/server/src/features/observability/tracing/context';

const LINE = Symbol.for('message');
type Info = Record<string | symbol, unknown>;

/** A logger whose own format writes `level: message`, as Strapi's pretty format does. */
function logger() {
  return {
    format: {
      transform(info: Info) {
        info[LINE] = `${String(info.level)}: ${String(info.message)}`;
        return info;
      },
    } as { transform(info: Info, options?: unknown): Info | boolean },
  };
}

describe('log lines', () => {
  const KEY = `sk_${'A1'.repeat(24)}`;

  it('keep the logger format, with the request id after the message and keys redacted', () => {
    const target = logger();
    shapeLogLines(target, { json: false, requestId: () => 'req-12345678' });
    const info = target.format.transform({ level: 'http', message: `GET /api/v1/keys?api_key=${KEY} (3 ms) 200` }) as Info;
    expect(info[LINE]).toBe('http: GET /api/v1/keys?api_key=[redacted] (3 ms) 200 [request req-12345678]');
  });

  it('outside a request, say nothing of one', () => {
    const target = logger();
    shapeLogLines(target, { json: false, requestId: () => undefined });
    expect((target.format.transform({ level: 'info', message: 'booted' }) as Info)[LINE]).toBe('info: booted');
  });

  it('as JSON, are one object a line with timestamp, level, message, request id and the other fields', () => {
    const target = logger();
    shapeLogLines(target, { json: true, requestId: () => 'req-12345678' });
    const info = target.format.transform({ level: 'warn', message: `key ${KEY}`, queue: 'x' }) as Info;
    const line = JSON.parse(String(info[LINE])) as Record<string, unknown>;
    expect(line).toEqual({
      timestamp: expect.any(String),
      level: 'warn',
      message: `key ${KEY.slice(0, 8)}[redacted]`,
      request_id: 'req-12345678',
      queue: 'x',
    });
    expect(String(info[LINE])).not.toContain('\n');
  });

  it('as JSON, write an error logged as the message with its text and stack, redacted', () => {
    const target = logger();
    shapeLogLines(target, { json: true, requestId: () => undefined });
    const error = new Error(`failed for ${KEY}`);
    const line = JSON.parse(String((target.format.transform({ level: 'error', message: error }) as Info)[LINE])) as Record<string, string>;
    expect(line.message).toBe(`failed for ${KEY.slice(0, 8)}[redacted]`);
    expect(line.stack).toContain('failed for sk_A1A1A[redacted]');
    expect(line).not.toHaveProperty('request_id');
  });
});

describe('request ids', () => {
  it.each(['abcdefgh', 'lb-2f9a.trace_01', 'A'.repeat(128)])('keeps %s', (sent) => expect(requestIdOf(sent)).toBe(sent));

  it.each([undefined, '', 'short', 'A'.repeat(129), 'has space', 'tab\there1', 'ünïcode-id', `sk_${'b'.repeat(48)}`])(
    'replaces %p',
    (sent) => {
      const id = requestIdOf(sent);
      expect(id).not.toBe(sent);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  );
});

describe("a delivery's publishing time", () => {
  it('is read from the UUID v7 delivery id, to the millisecond', () => {
    const before = Date.now();
    const id = newDeliveryId();
    expect(publishedAt(id)).toBeGreaterThanOrEqual(before);
    expect(publishedAt(id)).toBeLessThanOrEqual(Date.now());
    expect(publishedAt('01890a5d-ac96-774b-bcce-b302099a8057')).toBe(0x01890a5dac96);
  });

  it('is unknown for ids of other versions (deliveries made before ids were v7)', () => {
    expect(publishedAt('9b2f1d2e-3c4a-4b5d-8e6f-7a8b9c0d1e2f')).toBeUndefined();
    expect(publishedAt('not-a-uuid')).toBeUndefined();
  });
});

describe('trace context', () => {
  const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  const setter: TextMapSetter<Record<string, string>> = { set: (carrier, key, value) => (carrier[key] = value) };
  const getter: TextMapGetter<Record<string, string>> = { get: (carrier, key) => carrier[key], keys: (carrier) => Object.keys(carrier) };
  const manager = new AsyncLocalStorageContextManager();

  beforeAll(() => context.setGlobalContextManager(manager.enable()));
  afterAll(() => context.disable());
  afterEach(() => setTracingOn(false));

  it('costs nothing and stores nothing while tracing is off', () => {
    expect(startSpan('anything')).toBeUndefined();
    expect(traceparentOf()).toBeUndefined();
  });

  it('reads a stored traceparent back into the context it names, and ignores a malformed one', () => {
    const span = trace.getSpan(contextOf(traceparent));
    expect(span?.spanContext()).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 });
    expect(trace.getSpan(contextOf('00-not-a-trace-01'))).toBeUndefined();
    expect(contextOf(null)).toBe(ROOT_CONTEXT);
  });

  it('writes the traceparent of the active context once tracing is on', () => {
    setTracingOn(true);
    expect(context.with(contextOf(traceparent), () => traceparentOf())).toBe(traceparent);
  });

  it('honours an incoming traceparent, and sends one only inside sendingTraceContext', () => {
    const propagator = new OutboundGatedPropagator();
    const extracted = propagator.extract(ROOT_CONTEXT, { traceparent }, getter);
    expect(trace.getSpan(extracted)?.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');

    const injected = (): Record<string, string> => {
      const carrier: Record<string, string> = {};
      propagator.inject(context.active(), carrier, setter);
      return carrier;
    };
    context.with(extracted, () => {
      expect(injected()).toEqual({});
      expect(sendingTraceContext(injected)).toEqual({ traceparent });
    });
  });
});

describe('exported spans', () => {
  const key = `sk_${'k'.repeat(48)}`;

  it('hold no API key: attributes, arrays, name, status, events and links are redacted as log lines are', async () => {
    const memory = new tracing.InMemorySpanExporter();
    const provider = new tracing.BasicTracerProvider({
      spanProcessors: [new tracing.SimpleSpanProcessor(new RedactingSpanExporter(memory))],
    });
    const tracer = provider.getTracer('test');
    const linked = tracer.startSpan('linked');
    const span = tracer.startSpan(`GET /api/v1/articles/${key}`, {
      attributes: {
        'url.query': `api_key=${key}&limit=1`,
        'url.path': `/api/v1/articles/${key}`,
        'url.full': `http://x.test/token?client_secret=not-a-key-shape`,
        'some.list': ['plain', key],
        'http.response.status_code': 200,
      },
      links: [{ context: linked.spanContext(), attributes: { why: `retry of ${key}` } }],
    });
    span.recordException(new Error(`refused ${key}`));
    span.setStatus({ code: 2, message: `key ${key} expired` });
    span.end();
    linked.end();
    await provider.forceFlush();

    const exported = memory.getFinishedSpans().find((candidate) => candidate.name.startsWith('GET'));
    expect(exported).toBeDefined();
    expect(JSON.stringify(exported, (_name, value: unknown) => (typeof value === 'bigint' ? String(value) : value))).not.toContain(key);
    expect(JSON.stringify(exported?.events)).not.toContain(key);
    expect(exported?.name).toBe('GET /api/v1/articles/sk_kkkkk[redacted]');
    expect(exported?.attributes).toMatchObject({
      'url.query': 'api_key=[redacted]&limit=1',
      'url.path': '/api/v1/articles/sk_kkkkk[redacted]',
      'url.full': 'http://x.test/token?client_secret=[redacted]',
      'some.list': ['plain', 'sk_kkkkk[redacted]'],
      'http.response.status_code': 200,
    });
    expect(exported?.status.message).toBe('key sk_kkkkk[redacted] expired');
    expect(exported?.spanContext()).toEqual(span.spanContext());
    expect(exported?.links[0].attributes).toEqual({ why: 'retry of sk_kkkkk[redacted]' });
    await provider.shutdown();
  });

  it('go over the OTLP protocol the environment names, and a typo there is refused', () => {
    expect(otlpTraceExporter({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBeInstanceOf(JsonTraceExporter);
    expect(otlpTraceExporter({})).toBeInstanceOf(ProtobufTraceExporter);
    expect(() => otlpTraceExporter({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/jsn' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf, http\/json or grpc, not "http\/jsn"/
    );
    expect(() => otlpTraceExporter({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'udp' })).toThrow(
      /OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be/
    );
  });
});
