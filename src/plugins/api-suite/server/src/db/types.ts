import type { Core } from '@strapi/strapi';

/** The knex instance (or transaction) of Strapi's database connection. */
export type Knex = Core.Strapi['db']['connection'];

export type ColumnKind = 'text' | 'integer' | 'timestamp' | 'json';

export interface Column {
  name: string;
  kind: ColumnKind;
}
