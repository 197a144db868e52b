import { constantValue, CONSTANT_TYPES, jsonText, recordsetColumns, recordsetJson, recordsetValue } from './recordset';
import type { Column, ColumnKind, Knex } from './types';

/** SQLite takes at most 500 rows in one INSERT through knex. */
export const INSERT_CHUNK = 500;

export async function insertChunked(knex: Knex, table: string, rows: Record<string, unknown>[], chunk = INSERT_CHUNK): Promise<void> {
  for (let start = 0; start < rows.length; start += chunk) {
    await knex(table).insert(rows.slice(start, start + chunk));
  }
}

/** Ids per `IN (…)` of a delete: well inside every database's limit on bound values. */
export const DELETE_CHUNK = 1_000;

/**
 * Delete the rows whose `column` is one of `values`, `DELETE_CHUNK` at a time, `narrow` adding
 * conditions to each statement: how many went.
 */
export async function deleteInChunks<V extends string | number>(
  knex: Knex,
  table: string,
  column: string,
  values: V[],
  narrow?: (query: ReturnType<Knex>) => void
): Promise<number> {
  let deleted = 0;
  for (let start = 0; start < values.length; start += DELETE_CHUNK) {
    const query = knex(table).whereIn(column, values.slice(start, start + DELETE_CHUNK));
    narrow?.(query);
    deleted += Number(await query.del());
  }
  return deleted;
}

/** Rows per statement of the PostgreSQL paths: one JSON document, however many rows. */
const UNNEST_CHUNK = 10_000;

/**
 * Many rows of known columns, all or none, for hot paths. On PostgreSQL one statement per 10,000
 * rows that passes them as one JSON document (`INSERT … SELECT … FROM json_to_recordset($1)`), so
 * neither knex nor the driver handles a binding per value; elsewhere, knex's batched inserts.
 * `constants` give columns one value for every row: on PostgreSQL each is bound once rather than
 * repeated in every row of the document.
 */
export async function insertRows(
  knex: Knex,
  client: string,
  table: string,
  columns: Column[],
  rows: Array<Record<string, unknown>>,
  constants?: Record<string, unknown>
): Promise<void> {
  if (rows.length === 0) return;
  // Several statements run in one transaction, so a batch is stored whole or not at all.
  if (rows.length > (client === 'postgres' ? UNNEST_CHUNK : INSERT_CHUNK) && !knex.isTransaction) {
    await knex.transaction((trx) => insertRows(trx, client, table, columns, rows, constants));
    return;
  }
  if (client !== 'postgres') {
    // knex binds JSON columns' values as they are: an object must be its text first.
    const json = columns.filter((column) => column.kind === 'json').map((column) => column.name);
    const shared = sharedValues(columns, constants);
    const plain = (row: Record<string, unknown>): Record<string, unknown> => {
      const merged = { ...row, ...shared };
      for (const name of json) if (merged[name] != null) merged[name] = jsonText(merged[name]);
      return merged;
    };
    await insertChunked(knex, table, rows.map(plain));
    return;
  }
  for (let start = 0; start < rows.length; start += UNNEST_CHUNK) {
    const statement = recordsetStatement({ insert: table, columns, rows: rows.slice(start, start + UNNEST_CHUNK), constants });
    await knex.raw(statement.sql, statement.bindings as never);
  }
}

/** A part of writeMany as PostgreSQL SQL over `json_to_recordset(?)`, with its bindings in the order of their placeholders. */
function recordsetStatement(part: RowWrite): { sql: string; bindings: unknown[] } {
  const constants = sharedValues(part.columns, part.constants);
  const given = new Set(Object.keys(constants));
  // The document keeps at least one column: it is what gives the statement its rows.
  if ('insert' in part && given.size === part.columns.length) given.delete(part.columns[0].name);
  const fixed = (column: Column) => given.has(column.name);
  const varying = part.columns.filter((column) => !fixed(column));
  const bindings: unknown[] = [];
  // A constant is one bound value cast to its column's type; the other columns are read from the document.
  const value = (column: Column): string => {
    if (!fixed(column)) return recordsetValue(column, 'v');
    bindings.push(constantValue(column, constants[column.name]));
    return `CAST(? AS ${CONSTANT_TYPES[column.kind]})`;
  };
  if ('insert' in part) {
    const names = part.columns.map((column) => `"${column.name}"`).join(', ');
    const values = part.columns.map(value).join(', ');
    bindings.push(recordsetJson(part.rows, varying));
    return {
      sql: `INSERT INTO "${part.insert}" (${names}) SELECT ${values} FROM json_to_recordset(?::json) AS v(${recordsetColumns(varying)})`,
      bindings,
    };
  }
  const assignments = part.columns
    .map((column) =>
      column.keepWhenNull && !fixed(column)
        ? `"${column.name}" = COALESCE(${value(column)}, t."${column.name}")`
        : `"${column.name}" = ${value(column)}`
    )
    .join(', ');
  const read = [part.key, ...varying];
  bindings.push(recordsetJson(part.rows, read));
  return {
    sql: `UPDATE "${part.update}" AS t SET ${assignments} FROM json_to_recordset(?::json) AS v(${recordsetColumns(read)}) WHERE t."${part.key.name}" = v."${part.key.name}"`,
    bindings,
  };
}

export type UpdateColumn = Column & { keepWhenNull?: boolean };

/**
 * The constants that stand for a column's value in every row, the same on every dialect: only the
 * part's own columns, and neither an undefined value nor a null one for a column kept when null
 * (each row's own value, or the stored one, is kept then).
 */
function sharedValues(columns: UpdateColumn[], constants: Record<string, unknown> | undefined): Record<string, unknown> {
  const shared: Record<string, unknown> = {};
  if (!constants) return shared;
  for (const column of columns) {
    const value = constants[column.name];
    if (value !== undefined && !(column.keepWhenNull && value === null)) shared[column.name] = value;
  }
  return shared;
}

/**
 * One part of writeMany: rows inserted into a table, or rows updating a table's rows by key.
 * `constants` give columns one value for every row of the part.
 */
export type RowWrite =
  | { insert: string; columns: Column[]; rows: ReadonlyArray<object>; constants?: Record<string, unknown> }
  | { update: string; key: Column; columns: UpdateColumn[]; rows: ReadonlyArray<object>; constants?: Record<string, unknown> };

/**
 * Several insertRows and updateMany as one unit, all or none. On PostgreSQL, one statement and
 * one round trip: every part but the last runs as a data-modifying WITH clause of the last
 * (PostgreSQL runs each such clause exactly once, whether or not it is read). Elsewhere, or
 * beyond one statement's rows, the parts in one transaction.
 */
export async function writeMany(knex: Knex, client: string, writes: RowWrite[]): Promise<void> {
  const parts = writes.filter((write) => write.rows.length > 0);
  if (parts.length === 0) return;
  if (client !== 'postgres' || parts.some((part) => part.rows.length > UNNEST_CHUNK)) {
    const run = async (trx: Knex) => {
      for (const part of parts) {
        const rows = part.rows as Array<Record<string, unknown>>;
        if ('insert' in part) await insertRows(trx, client, part.insert, part.columns, rows, part.constants);
        else {
          const shared = sharedValues(part.columns, part.constants);
          await updateMany(
            trx,
            client,
            part.update,
            part.key,
            part.columns,
            Object.keys(shared).length > 0 ? rows.map((row) => ({ ...row, ...shared })) : rows
          );
        }
      }
    };
    await (knex.isTransaction || parts.length === 1 ? run(knex) : knex.transaction(run));
    return;
  }
  const statements = parts.map(recordsetStatement);
  const last = statements.length - 1;
  const clauses = statements.slice(0, last).map((statement, index) => `w${index} AS (${statement.sql})`);
  const sql = clauses.length > 0 ? `WITH ${clauses.join(', ')} ${statements[last].sql}` : statements[last].sql;
  await knex.raw(sql, statements.flatMap((statement) => statement.bindings) as never);
}

/**
 * UPDATE table SET col = v.col ... for many rows at once, each with its own values, keyed by
 * `key`: one statement per chunk instead of one per row (on PostgreSQL one JSON document; on
 * SQLite, 3.33+ for UPDATE ... FROM, a VALUES list; on MySQL a joined derived table).
 */
export async function updateMany(
  knex: Knex,
  client: string,
  table: string,
  key: { name: string; kind: ColumnKind },
  columns: UpdateColumn[],
  rows: Array<Record<string, unknown>>,
  chunk = 200
): Promise<void> {
  if (rows.length === 0) return;
  if (client === 'postgres') {
    await updateManyPostgres(knex, table, key, columns, rows);
    return;
  }
  if (client === 'mysql') {
    await updateManyMysql(knex, table, key, columns, rows, chunk);
    return;
  }
  if (client !== 'sqlite') {
    // Other dialects: one statement per row, still in one transaction.
    await knex.transaction(async (trx) => {
      for (const row of rows) {
        await trx(table)
          .where(key.name, row[key.name] as string | number)
          .update(
            Object.fromEntries(
              columns
                .filter((column) => !(column.keepWhenNull && row[column.name] == null))
                .map((column) => [column.name, row[column.name]])
            )
          );
      }
    });
    return;
  }
  const all = [key, ...columns];
  const cast = (kind: ColumnKind) => (kind === 'integer' ? 'CAST(? AS INTEGER)' : '?');
  const tuple = `(${all.map((column) => cast(column.kind)).join(', ')})`;
  const names = all.map((column) => `"${column.name}"`).join(', ');
  const assignments = columns
    .map((column) =>
      column.keepWhenNull
        ? `"${column.name}" = COALESCE(v."${column.name}", "${table}"."${column.name}")`
        : `"${column.name}" = v."${column.name}"`
    )
    .join(', ');
  for (let start = 0; start < rows.length; start += chunk) {
    const part = rows.slice(start, start + chunk);
    const bindings = part.flatMap((row) => all.map((column) => sqliteValue(row[column.name], column.kind)));
    await knex.raw(
      `WITH v(${names}) AS (VALUES ${part.map(() => tuple).join(', ')}) ` +
        `UPDATE "${table}" SET ${assignments} FROM v WHERE "${table}"."${key.name}" = v."${key.name}"`,
      bindings as never
    );
  }
}

/** The same statement on PostgreSQL with the rows as one JSON document: `UPDATE … FROM json_to_recordset($1) AS v(…)`. */
async function updateManyPostgres(
  knex: Knex,
  table: string,
  key: Column,
  columns: UpdateColumn[],
  rows: Array<Record<string, unknown>>
): Promise<void> {
  for (let start = 0; start < rows.length; start += UNNEST_CHUNK) {
    const statement = recordsetStatement({ update: table, key, columns, rows: rows.slice(start, start + UNNEST_CHUNK) });
    await knex.raw(statement.sql, statement.bindings as never);
  }
}

/**
 * The same on MySQL, which has neither UPDATE … FROM nor a VALUES list both MySQL 8 (`VALUES ROW(…)`)
 * and MariaDB (`VALUES (…)`) read: a multi-table UPDATE joined to the rows as a derived table of
 * `SELECT ? … UNION ALL SELECT ? …`. Its SET assigns from the derived table only, so the order in
 * which MySQL evaluates assignments (each seeing the ones before) does not matter.
 */
async function updateManyMysql(
  knex: Knex,
  table: string,
  key: Column,
  columns: UpdateColumn[],
  rows: Array<Record<string, unknown>>,
  chunk: number
): Promise<void> {
  const all = [key, ...columns];
  const first = `SELECT ${all.map((column) => `? AS \`${column.name}\``).join(', ')}`;
  const next = `SELECT ${all.map(() => '?').join(', ')}`;
  const assignments = columns
    .map((column) =>
      column.keepWhenNull
        ? `t.\`${column.name}\` = COALESCE(v.\`${column.name}\`, t.\`${column.name}\`)`
        : `t.\`${column.name}\` = v.\`${column.name}\``
    )
    .join(', ');
  for (let start = 0; start < rows.length; start += chunk) {
    const part = rows.slice(start, start + chunk);
    const values = [first, ...part.slice(1).map(() => next)].join(' UNION ALL ');
    const bindings = part.flatMap((row) => all.map((column) => mysqlValue(row[column.name], column.kind)));
    await knex.raw(
      `UPDATE \`${table}\` AS t JOIN (${values}) AS v ON t.\`${key.name}\` = v.\`${key.name}\` SET ${assignments}`,
      bindings as never
    );
  }
}

/** A value as MySQL's derived table takes it: JSON as its text, a time as the driver writes a Date. */
function mysqlValue(value: unknown, kind: ColumnKind): unknown {
  if (value === undefined || value === null) return null;
  if (kind === 'timestamp') return value instanceof Date ? value : new Date(value as string | number);
  if (kind === 'json') return jsonText(value);
  return value;
}

/** Strapi keeps SQLite datetimes as epoch milliseconds. */
function sqliteValue(value: unknown, kind: ColumnKind): unknown {
  if (value === undefined || value === null) return null;
  if (kind === 'timestamp') return (value instanceof Date ? value : new Date(value as string | number)).getTime();
  if (kind === 'json') return jsonText(value);
  return value;
}
