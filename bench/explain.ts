// Evidence for slow list/search scenarios: the exact SQL the service runs (captured through a Kysely
// log), each statement timed alone, and its plan (EXPLAIN QUERY PLAN / EXPLAIN ANALYZE).
import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/storage/database.js';
import { parseDatabaseUrl, type Db } from '../src/storage/db.js';
import { uncachedAuthChanges } from '../src/storage/auth-changes.js';

export interface StatementReport {
  sql: string;
  parameters: readonly unknown[];
  medianMs: number;
  plan: string[];
}

export interface Explainer {
  /** Runs `call` against a Kysely that records every statement, then times and explains each. */
  explain(call: (db: Db) => Promise<unknown>): Promise<StatementReport[]>;
  close(): Promise<void>;
}

export function createExplainer(url: string): Explainer {
  const target = parseDatabaseUrl(url);
  let captured: CompiledQuery[] = [];
  const log = (event: LogEvent) => {
    if (event.level === 'query') captured.push(event.query);
  };
  const kysely =
    target.dialect === 'sqlite'
      ? new Kysely<Database>({ dialect: new SqliteDialect({ database: new SqliteDatabase(target.path, { readonly: true }) }), log })
      : new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: target.url, max: 2 }) }), log });
  const db: Db = {
    kysely,
    reads: kysely,
    dialect: target.dialect,
    authChanges: uncachedAuthChanges,
    ping: () => Promise.resolve(),
    close: () => kysely.destroy(),
  };

  async function timeIt(query: CompiledQuery): Promise<number> {
    // Up to 7 runs, fewer when a statement is slow (at most ~3 s per statement); the median.
    const runs: number[] = [];
    let spent = 0;
    while (runs.length < 7 && (runs.length < 1 || spent < 3000)) {
      const t = performance.now();
      await kysely.executeQuery(CompiledQuery.raw(query.sql, [...query.parameters]));
      const ms = performance.now() - t;
      runs.push(ms);
      spent += ms;
    }
    runs.sort((a, b) => a - b);
    return runs[Math.floor(runs.length / 2)]!;
  }

  async function planOf(query: CompiledQuery): Promise<string[]> {
    if (target.dialect === 'sqlite') {
      const { rows } = await kysely.executeQuery<{ id: number; parent: number; detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      const depth = new Map<number, number>([[0, -1]]);
      return rows.map((r) => {
        const d = (depth.get(r.parent) ?? -1) + 1;
        depth.set(r.id, d);
        return `${'  '.repeat(d)}${r.detail}`;
      });
    }
    // ANALYZE runs the statement once more: real row counts and where the time goes, node by node.
    const { rows } = await kysely.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain (analyze, buffers) ${query.sql}`, [...query.parameters]));
    return rows.map((r) => r['QUERY PLAN']);
  }

  return {
    async explain(call) {
      captured = [];
      await call(db);
      const statements = captured;
      captured = [];
      const out: StatementReport[] = [];
      for (const q of statements) {
        const medianMs = await timeIt(q);
        out.push({ sql: q.sql, parameters: q.parameters, medianMs, plan: await planOf(q) });
      }
      captured = [];
      return out;
    },
    close: () => kysely.destroy(),
  };
}
