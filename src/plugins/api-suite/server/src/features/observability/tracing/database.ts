import { context, SpanKind, trace, type Span } from '@opentelemetry/api';
import type { Knex } from '../../../db';
import { failSpan, startSpan, tracingOn } from './context';

interface QueryEvent {
  __knexQueryUid?: string;
  sql?: string;
  method?: string;
}

/**
 * A span per database query made inside a trace, from knex's own query events: they fire for
 * Strapi's queries and the plugin's alike, on SQLite and PostgreSQL, and need no patching of a
 * driver loaded before tracing could start. The statement is recorded with its placeholders,
 * never its values. Queries outside any trace (the delivery sweep, the usage flush) make none,
 * so a quiet server exports nothing.
 */
export function traceQueries(knex: Knex, system: string, database: string | undefined): () => void {
  const open = new Map<string, Span>();
  const onQuery = (query: QueryEvent) => {
    if (!tracingOn() || query.__knexQueryUid === undefined || !trace.getSpan(context.active())) return;
    const operation = operationOf(query);
    const span = startSpan(
      database ? `${operation} ${database}` : operation,
      {
        'db.system.name': system,
        'db.operation.name': operation,
        ...(database ? { 'db.namespace': database } : {}),
        ...(query.sql ? { 'db.query.text': query.sql } : {}),
      },
      SpanKind.CLIENT
    );
    if (span) open.set(query.__knexQueryUid, span);
  };
  const onResponse = (_response: unknown, query: QueryEvent) => {
    const span = query.__knexQueryUid === undefined ? undefined : open.get(query.__knexQueryUid);
    if (!span) return;
    open.delete(query.__knexQueryUid as string);
    span.end();
  };
  const onError = (error: unknown, query: QueryEvent) => {
    const span = query.__knexQueryUid === undefined ? undefined : open.get(query.__knexQueryUid);
    if (!span) return;
    open.delete(query.__knexQueryUid as string);
    failSpan(span, error);
    span.end();
  };
  knex.on('query', onQuery);
  knex.on('query-response', onResponse);
  knex.on('query-error', onError);
  return () => {
    knex.off('query', onQuery);
    knex.off('query-response', onResponse);
    knex.off('query-error', onError);
    open.clear();
  };
}

/** The statement's first keyword (`SELECT`, `INSERT`, `WITH`…), which knex's method names (`first`, `del`) are not. */
function operationOf(query: QueryEvent): string {
  const word = /^\s*([A-Za-z]+)/.exec(query.sql ?? '')?.[1];
  return word ? word.toUpperCase() : 'QUERY';
}
