import type { ApiDescription } from '../contract/openapi';
import type { Core } from '@strapi/strapi';

export type Factory<T> = (context: { strapi: Core.Strapi }) => T;

export type Lifecycle = (context: { strapi: Core.Strapi }) => void | Promise<void>;

/** A route declared by a feature: Strapi's route input, with the handler as "<controller>.<action>". */
export type FeatureRoute = Core.RouteInput;

/**
 * An admin-panel permission a feature adds to Settings → Roles (section "Plugins", grouped by
 * `subCategory`); its action id is `plugin::api-suite.<uid>`, which the feature's admin routes
 * and admin pages check.
 */
export interface AdminAction {
  uid: string;
  displayName: string;
  subCategory: string;
}

/**
 * One capability of the plugin (webhooks, scrapers, access, ...). The plugin object is the merge
 * of every feature module: lifecycles run in order, and each named piece (content type,
 * controller, service, policy, middleware) must be unique across features.
 */
export interface FeatureModule {
  name: string;
  register?: Lifecycle;
  bootstrap?: Lifecycle;
  destroy?: Lifecycle;
  contentTypes?: Record<string, { schema: Record<string, unknown> }>;
  controllers?: Record<string, Factory<Core.Controller>>;
  services?: Record<string, Factory<Core.Service>>;
  policies?: Record<string, Core.Policy>;
  middlewares?: Record<string, Core.MiddlewareFactory>;
  routes?: {
    'content-api'?: FeatureRoute[];
    admin?: FeatureRoute[];
  };
  /** Its routes as the OpenAPI document shows them (zod schemas of requests and answers). */
  api?: ApiDescription;
  /** How the Content Manager shows its content types, by content type name. */
  contentManager?: Record<string, ContentManagerView>;
  /** Registered with the admin's permission system at bootstrap, before any feature's own bootstrap. */
  adminActions?: AdminAction[];
}

/**
 * How the Content Manager shows one of a feature's content types (see the platform's
 * `content-manager-views` service, which writes it into Strapi's stored configuration).
 */
export interface ContentManagerView {
  /** The field that names an entry: the list's link, the edit view's title and every relation picker pointing here. */
  mainField: string;
  /** The list's default order. */
  sort: { by: string; order: 'ASC' | 'DESC' };
  /** The list's columns, in order (Strapi adds the status column of draft-and-publish types itself). */
  list: string[];
  /** The edit form's rows: a field at its default width, or `[field, width]` out of 12. Fields left out are not shown. */
  edit: Array<Array<string | [string, number]>>;
  /** Labels of fields, in the list and the form. */
  labels?: Record<string, string>;
  /** Help under a field in the form. */
  descriptions?: Record<string, string>;
  /** Fields shown in the form but not editable (the plugin or the engine writes them). */
  readOnlyFields?: string[];
  pageSize?: 10 | 20 | 50 | 100;
}
