import type { Core } from '@strapi/strapi';

/** The knex instance (or transaction) of Strapi's database connection. */
export type Knex = Core.Strapi['db']['connection'];

export type ColumnKind = 'text' | 'integer' | 'timestamp' | 'json';

export interface Column {
  name: string;
  kind: ColumnKind;
}

/**
 * A table of the plugin that is not a content type: no document id, locale, publication date or
 * author columns, and only the indexes its queries need. Strapi creates it and keeps it in step
 * with the declaration at boot, as it does its own tables.
 */
export interface DatabaseModel {
  uid: string;
  singularName: string;
  tableName: string;
  /**
   * `mysqlLength`: a string column's length on MySQL, where the 255 characters Strapi gives every
   * string (1,020 bytes in utf8mb4) would take an index past InnoDB's 3,072 bytes: MySQL 8 refuses
   * such an index, and MariaDB quietly makes a unique one a hash of its columns instead. Elsewhere
   * the column stays as it always was.
   */
  attributes: Record<string, { type: string; mysqlLength?: number }>;
  indexes: Array<{ name: string; columns: string[]; type?: 'unique' }>;
}
