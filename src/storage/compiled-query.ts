import { createHash } from 'node:crypto';
import { createQueryId, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import type { CommittedReader } from './committed-reader.js';

/**
 * A query Kysely builds and compiles once per database, then runs with new parameter values.
 * Building and compiling the same tree on every call was 20% of a GET /deals/:id (issue 6).
 *
 * `build` receives stand-ins for its arguments and must use each one only as a bound value
 * (`where('id', '=', id)`), never to shape the query (no `if (arg)`, no `sql.lit(arg)`): the SQL it
 * returns is reused for every later call.
 */
export interface CompiledQueryRunner<DB, A extends unknown[], O> {
  execute(db: Kysely<DB>, ...args: A): Promise<O[]>;
  executeTakeFirst(db: Kysely<DB>, ...args: A): Promise<O | undefined>;
  /**
   * SQLite (`reader` given): the first row, read synchronously on the read-only connection that only
   * sees committed state (committed-reader.ts), outside Kysely's driver. `db` only compiles the query
   * (its dialect). Should that read fail (a busy or failing file), or without a reader, or when `db`
   * has plugins (nothing here would apply them), the query runs on `db` as `executeTakeFirst` does:
   * a plain statement there never sees an open group-commit batch.
   */
  takeFirstCommitted(reader: CommittedReader | undefined, db: Kysely<DB>, ...args: A): Promise<O | undefined>;
  /** The same for every row (a list's page), with the same fallback to `execute`. */
  executeCommitted(reader: CommittedReader | undefined, db: Kysely<DB>, ...args: A): Promise<O[]>;
}

interface Template {
  compiled: CompiledQuery;
  /** Per compiled parameter: the index of the argument bound there, or -1 for a value fixed by `build`. */
  slots: number[];
}

const placeholder = (i: number) => `\u0000compiled-query-arg-${i}\u0000`;

// SQL text -> PostgreSQL statement name, for the named prepared statements of storage/db.ts.
const statementNames = new Map<string, string>();

/** The name under which PostgreSQL connections prepare this SQL text once, if it is a compiled query's. */
export const preparedStatementName = (text: string): string | undefined => statementNames.get(text);

export function compiledQuery<DB, A extends unknown[], O>(name: string, build: (db: Kysely<DB>, ...args: A) => Compilable<O>): CompiledQueryRunner<DB, A, O> {
  // Keyed by the dialect adapter: one per Kysely instance, shared with its transactions (each a Kysely of its own).
  const templates = new WeakMap<object, Template>();

  function template(db: Kysely<DB>, arity: number): Template {
    const adapter = db.getExecutor().adapter;
    let found = templates.get(adapter);
    if (!found) {
      const standIns = Array.from({ length: arity }, (_, i) => placeholder(i)) as A;
      const compiled = build(db, ...standIns).compile();
      const slots = compiled.parameters.map((value) => standIns.indexOf(value));
      const unbound = standIns.findIndex((_, i) => !slots.includes(i));
      if (unbound >= 0) throw new Error(`compiledQuery '${name}': argument ${unbound} is not a bound parameter of the query`);
      found = { compiled, slots };
      templates.set(adapter, found);
      statementNames.set(compiled.sql, `${name}_${createHash('sha1').update(compiled.sql).digest('hex').slice(0, 8)}`);
    }
    return found;
  }

  async function execute(db: Kysely<DB>, ...args: A): Promise<O[]> {
    // A plugin could rewrite the query or its rows per call: such a Kysely takes the ordinary path.
    if (db.getExecutor().plugins.length > 0) return (await db.executeQuery(build(db, ...args))).rows;
    const { compiled, slots } = template(db, args.length);
    const parameters = slots.map((slot, i) => (slot < 0 ? compiled.parameters[i] : args[slot]));
    const result = await db.executeQuery<O>({ ...compiled, parameters, queryId: createQueryId() });
    return result.rows;
  }

  /** `read` run on the committed reader with this query's SQL and parameters; undefined when there is no reader or the read failed. */
  function committed<R>(
    reader: CommittedReader | undefined,
    db: Kysely<DB>,
    args: A,
    read: (sql: string, parameters: unknown[]) => R,
  ): { value: R } | undefined {
    // A Kysely with plugins (a test counting queries, say) takes the ordinary path, where they apply.
    if (!reader || db.getExecutor().plugins.length > 0) return undefined;
    const { compiled, slots } = template(db, args.length);
    try {
      return {
        value: read(
          compiled.sql,
          slots.map((slot, i) => (slot < 0 ? compiled.parameters[i] : args[slot])),
        ),
      };
    } catch {
      // Answered by the serving connection instead (a real fault fails there too, as a 500).
      return undefined;
    }
  }

  return {
    execute,
    executeTakeFirst: async (db, ...args) => (await execute(db, ...args))[0],
    async takeFirstCommitted(reader, db, ...args) {
      const read = committed(reader, db, args, (text, parameters) => reader!.get<O>(text, parameters));
      return read ? read.value : (await execute(db, ...args))[0];
    },
    async executeCommitted(reader, db, ...args) {
      const read = committed(reader, db, args, (text, parameters) => reader!.all<O>(text, parameters));
      return read ? read.value : execute(db, ...args);
    },
  };
}

/**
 * One value per shape (dialect, sort, status condition, number of a board's phases…), made on first
 * use: `make` returns a compiledQuery, so only the parameters vary from one call to the next. The
 * shapes are a closed set, so nothing is ever evicted.
 */
export function perShape<K extends unknown[], R>(key: (...shape: K) => string, make: (...shape: K) => R): (...shape: K) => R {
  const made = new Map<string, R>();
  return (...shape) => {
    const k = key(...shape);
    let found = made.get(k);
    if (!found) made.set(k, (found = make(...shape)));
    return found;
  };
}

/**
 * compiledQuery for a query whose SQL depends on a key (the dialect, the number of a board's
 * phases): `build(key)` gives the query of that key, compiled once per key on first use. What
 * shapes the SQL goes in the key, never in the arguments, which stay bound values only.
 */
export function compiledQueryFamily<K extends string, DB, A extends unknown[], O>(
  name: string,
  build: (key: K) => (db: Kysely<DB>, ...args: A) => Compilable<O>,
): (key: K) => CompiledQueryRunner<DB, A, O> {
  return perShape(
    (key: K) => key,
    (key: K) => compiledQuery(`${name}_${key}`, build(key)),
  );
}
