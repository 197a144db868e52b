import type { z } from 'zod';

/**
 * One route's contract, written once in its feature's `validation/contracts.ts`: its method, its
 * path as a client calls it, what it takes and what it answers. Three readers share it:
 *
 * - the route table mounts the route from it (`apiRoutes`, `adminRoute` in http/);
 * - the OpenAPI document describes it from it, when it is a route of the public API (an
 *   `Operation`: the contract with its words, operationId, tags and security);
 * - the browsers' one typed client (`shared/client.ts`) calls it by its key (`GET /api/v1/scrapers/{id}`)
 *   and types the call's params, query, body and answer from it, so no browser writes a path's
 *   answer by hand.
 *
 * The schemas are zod's: a request part as a client writes it (`z.input`), the answer as the
 * server sends it (`z.output`). Contracts import only zod and pure modules, so the browsers can
 * take their types.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Json = string | number | boolean | null | readonly Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A body that is not JSON (a stream, CSV): described in words. */
export interface TextBody {
  text: string;
}

export interface ResponseSpec {
  description: string;
  /** `application/json` body. */
  json?: z.ZodType;
  /** Other media types (or JSON alongside them). */
  content?: Record<string, z.ZodType | TextBody>;
  /** Named headers of `components.headers`, or header objects written out. */
  headers?: Record<string, JsonObject>;
}

/** A shared response of `components.responses`, by name. */
export interface SharedResponse {
  shared: string;
}

export type Responses = Record<string, ResponseSpec | SharedResponse>;

export interface RouteContract {
  method: HttpMethod;
  /**
   * As a client calls it, with its parameters in braces: `/api/v1/scrapers/{id}` (the API, under
   * the site's REST prefix, written `/api`), `/api-suite/scrapers/{id}` (the admin panel's).
   */
  path: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: { required: boolean; json?: z.ZodType; content?: Record<string, z.ZodType> };
  /** By status: the success's body (`json`), and the refusals a client should expect. */
  responses: Responses;
}

/**
 * Names a feature's contracts; `const` keeps each one's literal method, path and schemas, which
 * the typed client reads.
 */
export const defineContracts = <const R extends Record<string, RouteContract>>(contracts: R): R => contracts;

/** The contract's key for the typed client: `GET /api/v1/scrapers/{id}`. */
export type ContractKey<C extends RouteContract> = `${Uppercase<C['method']>} ${C['path']}`;

type SuccessStatus = '200' | '201' | '202';

/** What a success answers, as the server writes it; `void` for a 204 or a body that is not JSON. */
export type AnswerOf<C extends RouteContract> = [
  {
    [S in keyof C['responses'] & SuccessStatus]: C['responses'][S] extends { json: infer J extends z.ZodType } ? z.output<J> : never;
  }[keyof C['responses'] & SuccessStatus],
] extends [never]
  ? void
  : {
      [S in keyof C['responses'] & SuccessStatus]: C['responses'][S] extends { json: infer J extends z.ZodType } ? z.output<J> : never;
    }[keyof C['responses'] & SuccessStatus];

/** The parts of a call, as a client writes them: each present only where the contract names it. */
export type CallOf<C extends RouteContract> = (C['params'] extends z.ZodObject ? { params: z.input<C['params']> } : unknown) &
  (C['query'] extends z.ZodObject ? { query?: z.input<C['query']> } : unknown) &
  (C['body'] extends { json: infer J extends z.ZodType; required: infer R }
    ? R extends true
      ? { body: z.input<J> }
      : { body?: z.input<J> }
    : unknown);

/** The contract's path with its parameters filled in (each one URL-encoded). */
export function fillPath(template: string, params: Record<string, unknown> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}

/** The contract's path as Strapi's router mounts it: `{id}` written `:id`, without the mount point. */
export function routerPath(contract: RouteContract, mount: string): string {
  if (!contract.path.startsWith(`${mount}/`)) throw new Error(`${contract.path} is not under ${mount}`);
  return contract.path.slice(mount.length).replace(/\{(\w+)\}/g, ':$1');
}

/** The contract a mounted route was made from, kept on the route so the route table can be checked as a whole. */
export const ROUTE_CONTRACT = Symbol.for('api-suite.routeContract');

/** The route, carrying its contract (not enumerable: Strapi's route checks never see it). */
export function fromContract<R extends object>(route: R, contract: RouteContract): R {
  return Object.defineProperty(route, ROUTE_CONTRACT, { value: contract, enumerable: false });
}
