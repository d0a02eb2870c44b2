/**
 * Statements the hot reads run on every request, prepared once per connection and then only
 * executed: PostgreSQL parses and plans them once (a generic plan, after its first runs),
 * instead of on every call as a query built anew would be.
 *
 * - PostgreSQL (a pg Pool): a named statement; node-postgres prepares it on each pooled
 *   connection the first time that connection runs it.
 * - PGlite (one session): SQL PREPARE once, then EXECUTE with the values written as literals
 *   (only whole numbers, arrays of them, lowercase hex digests and null are accepted: none of
 *   them can hold a quote, so nothing else is ever spliced).
 * - Inside a transaction: on PostgreSQL, prepared on the transaction's own connection when the
 *   transaction runs on a drizzle of that connection (db/transaction.ts); otherwise the same text,
 *   unprepared, through the transaction.
 * - A free text (a write's content, a client_id) goes in as boundText(value): always a bound
 *   parameter, never spliced; on PGlite such a call runs the text with its values bound.
 * - A statement marked planEachCall is never prepared: planned for each call's values.
 *
 * Texts use $1, $2, ... ; `types` names each parameter's type for PGlite's PREPARE. Keep every
 * LIMIT a constant in the text: with LIMIT $n the planner prices a generic plan for a tenth of
 * the table and replans every call. Likewise it prices an array parameter at ten elements: where
 * the arrays are always a few, and their length bounded, a text per length with each element a
 * parameter of its own keeps the generic plan (services/post-add.ts, its counts).
 */
import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from './client.ts';

export interface PreparedStatement {
  /** Unique per text: one name never stands for two texts on a connection. */
  name: string;
  /** PostgreSQL types of $1, $2, ... (bigint[], int, ...). */
  types: readonly string[];
  text: string;
  /**
   * Planned anew for each call's values, never prepared: for a statement whose best plan depends
   * on the values (an author with five posts or with a hundred thousand), where one generic plan
   * would be wrong for some.
   */
  planEachCall: boolean;
}

/** A lowercase hexadecimal text (a sha256 digest): the only text a prepared statement takes. */
export type HexDigest = string & { readonly hexDigest: true };

const HEX_DIGEST = /^[0-9a-f]{1,128}$/;

export function hexDigest(value: string): HexDigest {
  if (!HEX_DIGEST.test(value)) throw new Error('not a lowercase hex digest');
  return value as HexDigest;
}

/** A text of any content: only ever sent as a bound parameter. */
export interface BoundText {
  readonly bound: string;
}

export const boundText = (value: string): BoundText => ({ bound: value });

const isBoundText = (value: PreparedValue): value is BoundText => typeof value === 'object' && value !== null && 'bound' in value;

export type PreparedValue = number | readonly number[] | HexDigest | BoundText | null;

export function preparedStatement(
  name: string,
  types: readonly string[],
  text: string,
  options: { planEachCall?: boolean } = {},
): PreparedStatement {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`bad statement name ${name}`);
  return { name, types, text, planEachCall: options.planEachCall ?? false };
}

const statementsByName = new Map<string, PreparedStatement>();

/**
 * The statement `name`, made by `make` the first time it is asked for. A name is one statement for
 * the process (PostgreSQL prepares it under that name on each connection), so one map holds them all.
 */
export function statementNamed(name: string, make: (name: string) => PreparedStatement): PreparedStatement {
  let statement = statementsByName.get(name);
  if (!statement) {
    statement = make(name);
    statementsByName.set(name, statement);
  }
  return statement;
}

function literal(value: PreparedValue): string {
  if (value === null) return 'null';
  if (isBoundText(value)) throw new Error('a bound text is never spliced');
  // Text reaches here only through queryPrepared, which checked it is a hex digest.
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`not a whole number: ${value}`);
    return String(value);
  }
  return `'{${(value as readonly number[]).map((item) => literal(item)).join(',')}}'`;
}

/** A value as a driver parameter: arrays as their literal text, bound texts as themselves. */
function parameter(value: PreparedValue): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (isBoundText(value)) return value.bound;
  return literal(value).slice(1, -1);
}

/** Per PGlite session: the statements prepared so far (or being prepared). */
const preparedOnPglite = new WeakMap<PGlite, Map<string, Promise<unknown>>>();

async function ensurePreparedOnPglite(client: PGlite, statement: PreparedStatement): Promise<void> {
  let prepared = preparedOnPglite.get(client);
  if (!prepared) {
    prepared = new Map();
    preparedOnPglite.set(client, prepared);
  }
  let pending = prepared.get(statement.name);
  if (!pending) {
    const types = statement.types.length > 0 ? ` (${statement.types.join(', ')})` : '';
    pending = client.exec(`prepare ${statement.name}${types} as ${statement.text}`);
    prepared.set(statement.name, pending);
    pending.catch(() => prepared.delete(statement.name));
  }
  await pending;
}

/** The text with its values written in as literals (PGlite, planned for them). */
const splicedText = (statement: PreparedStatement, values: readonly PreparedValue[]) =>
  statement.text.replace(/\$(\d+)/g, (_, n: string) => `${literal(values[Number(n) - 1] ?? null)}::${statement.types[Number(n) - 1]!}`);

/** The text with its values bound as drizzle parameters (the unprepared path). */
function boundSql(statement: PreparedStatement, values: readonly PreparedValue[]): SQL {
  const parts = statement.text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => {
    if (i % 2 === 0) chunks.push(sql.raw(part));
    else {
      const value = values[Number(part) - 1] ?? null;
      const type = statement.types[Number(part) - 1]!;
      chunks.push(sql`${parameter(value)}::${sql.raw(type)}`);
    }
  });
  return sql.join(chunks);
}

export async function queryPrepared<Row>(db: Db, statement: PreparedStatement, values: readonly PreparedValue[]): Promise<Row[]> {
  if (values.length !== statement.types.length) throw new Error(`${statement.name} takes ${statement.types.length} values`);
  // The same values on every engine, whether they are bound or spliced (PGlite).
  for (const value of values) if (typeof value === 'string') hexDigest(value);
  // A database carries its driver client (a pool, or a transaction's connection); drizzle's own transactions carry none.
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof pg.Pool || client instanceof pg.Client) {
    const named = statement.planEachCall ? {} : { name: statement.name };
    const result = await client.query({ ...named, text: statement.text, values: values.map(parameter) });
    return result.rows as Row[];
  }
  if (client instanceof PGlite && values.some(isBoundText)) {
    return (await client.query<Row>(statement.text, values.map(parameter))).rows;
  }
  if (client instanceof PGlite && statement.planEachCall) {
    return (await client.query<Row>(splicedText(statement, values))).rows;
  }
  if (client instanceof PGlite) {
    await ensurePreparedOnPglite(client, statement);
    const args = values.length > 0 ? ` (${values.map(literal).join(', ')})` : '';
    const result = await client.query<Row>(`execute ${statement.name}${args}`);
    return result.rows;
  }
  const result = (await db.execute(boundSql(statement, values))) as unknown as { rows: Row[] };
  return result.rows;
}

/**
 * `exists (select from <rest>)` as a lookup per row. PostgreSQL may turn a correlated EXISTS in a
 * select list into a hashed subplan that reads every matching row once per call: every like,
 * follow or vote of the viewer for each page, however many they made. A scalar subquery with
 * LIMIT 1 stays one index lookup per row.
 */
export const existsPerRow = (rest: string) => `coalesce((select true from ${rest} limit 1), false)`;
