import { context, trace } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import { tracingOn } from './context';

/**
 * Name the HTTP instrumentation's span of this request after the route it matched (`GET
 * /api/v1/articles/:id` rather than `GET`, which is all the instrumentation knows), and give it
 * the request id its log lines carry, so that a complaint's `X-Request-Id` finds its trace.
 */
export function describeRequestSpan(route: string | undefined, requestId: string): void {
  if (!tracingOn()) return;
  const active = context.active();
  const span = trace.getSpan(active);
  if (!span) return;
  span.setAttribute('api_suite.request_id', requestId);
  const metadata = getRPCMetadata(active);
  if (route && metadata?.type === RPCType.HTTP) metadata.route = route;
}
