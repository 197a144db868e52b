import type { Core } from '@strapi/strapi';
import { EndpointNotAllowedError, OutboundTimeoutError, type OutboundResponse } from '../../../outbound';
import { getConfig, getService } from '../../../utils';
import {
  contextOf,
  sendingTraceContext,
  SpanKind,
  SpanStatusCode,
  startSpan,
  tracingOn,
  withSpan,
} from '../../observability/tracing/context';
import { honoursRetryAfter, parseRetryAfter } from './retry';
import { signatureHeader } from '../signing';
import type { DeliveryTarget } from '../services/subscriptions';
import type { AttemptOutcome, DeliverySend } from './types';

/** Response bodies are kept on the attempt up to this size. */
export const RESPONSE_BODY_LIMIT = 2048;

/**
 * One signed POST to the endpoint; never throws. Traced (tracing on only) as a span of the trace
 * of the publish that made the delivery, whose child is the request itself.
 */
export function sendAttempt(strapi: Core.Strapi, target: DeliveryTarget, data: DeliverySend): Promise<AttemptOutcome> {
  return tracingOn() ? tracedAttempt(strapi, target, data) : post(strapi, target, data);
}

async function tracedAttempt(strapi: Core.Strapi, target: DeliveryTarget, data: DeliverySend): Promise<AttemptOutcome> {
  const span = startSpan(
    'webhooks.deliver',
    {
      'api_suite.event_type': data.type,
      'api_suite.delivery_id': data.delivery,
      'api_suite.subscription_id': data.subscription,
      'api_suite.attempt': data.attempt,
    },
    SpanKind.CONSUMER,
    data.trace ? contextOf(data.trace) : undefined
  );
  const send = () => post(strapi, target, data);
  const outcome = await withSpan(span, getConfig(strapi).webhooks.sendTraceparent ? () => sendingTraceContext(send) : send);
  if (outcome.statusCode !== null) span?.setAttribute('http.response.status_code', outcome.statusCode);
  if (!outcome.ok) span?.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error ?? 'failed' });
  span?.end();
  return outcome;
}

/** Not an async function: thousands a second, so one promise (the response's `then`) rather than three. */
function post(strapi: Core.Strapi, target: DeliveryTarget, data: DeliverySend): Promise<AttemptOutcome> {
  const started = Date.now();
  let response: Promise<OutboundResponse>;
  try {
    const timestamp = Math.floor(started / 1000);
    const headers: Record<string, string> = {
      ...target.headers,
      'content-type': 'application/json',
      'webhook-id': data.delivery,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(target.secrets, data.delivery, timestamp, data.body),
      'x-webhook-event': data.type,
    };
    response = getService(strapi, 'platform').outbound().request(target.endpointUrl, {
      method: 'POST',
      headers,
      body: data.body,
      timeoutMs: target.timeoutMs,
      maxResponseBytes: RESPONSE_BODY_LIMIT,
    });
  } catch (error) {
    return Promise.reject(error);
  }
  return response.then(outcomeOf, (error: unknown) => ({
    ok: false,
    statusCode: null,
    durationMs: Date.now() - started,
    error: describeFailure(error),
    responseBody: null,
  }));
}

function outcomeOf(response: OutboundResponse): AttemptOutcome {
  const ok = response.status >= 200 && response.status < 300;
  return {
    ok,
    statusCode: response.status,
    durationMs: response.durationMs,
    error: ok ? null : `HTTP ${response.status}`,
    responseBody: response.body === '' ? null : response.body,
    retryAfterSeconds: honoursRetryAfter(response.status) ? parseRetryAfter(response.headers['retry-after']) : undefined,
  };
}

function describeFailure(error: unknown): string {
  if (error instanceof EndpointNotAllowedError) return `endpoint_not_allowed: ${error.message}`;
  if (error instanceof OutboundTimeoutError) return `timeout: ${error.message}`;
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}
