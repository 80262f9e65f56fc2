// node dist-bench/bench/write-cost.js [count] [concurrency]
// Issue 15 (group commit on SQLite): what one POST /deals costs the database without HTTP.
// Creates `count` deals through the deals service (one transaction each, as the API does) in a fresh
// SQLite file with one subscribed webhook, and reports creates/s, WAL bytes per create (automatic
// checkpoints off, so the WAL only grows) and how many COMMITs carried them:
// - one after another, with synchronous=NORMAL, OFF and FULL (what the commit's sync costs), and a
//   what-if without the deals' FTS5 insert trigger;
// - `concurrency` callers at once (default 10, like the bench's connections), with group commit on
//   and off (SQLITE_GROUP_COMMIT=off), in the same run: grouping only happens with concurrency.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createServices } from '../src/app/services.js';
import { createDb } from '../src/storage/db.js';
import { migrateToLatest } from '../src/storage/migrator.js';

const count = Number(process.argv[2] ?? 2000);
const concurrency = Number(process.argv[3] ?? 10);

interface Run {
  synchronous?: 'NORMAL' | 'OFF' | 'FULL';
  withoutFts?: boolean;
  callers?: number;
  groupCommit?: boolean;
  /** Keep SQLite's automatic checkpoints (every 1,000 WAL pages), as `serve` runs: WAL size is then not measured. */
  checkpoints?: boolean;
}

async function run({ synchronous = 'NORMAL', withoutFts = false, callers = 1, groupCommit = true, checkpoints = false }: Run) {
  const dir = mkdtempSync(join(os.tmpdir(), 'autosales-write-cost-'));
  const file = join(dir, 'x.db');
  const db = createDb(`sqlite:${file}`, { groupCommit });
  try {
    await migrateToLatest(db);
    const { teams, webhooks, deals } = createServices(db);
    const team = await teams.create({ name: 'Loja custo de escrita', plan: 'autoshopping' });
    await webhooks.create({ teamId: team.id, url: 'https://receiver.example.com/hook', events: ['deal.created'] });
    // Warm the statement cache and the pages the writes touch.
    for (let i = 0; i < 50; i++) await deals.create(team.id, { title: `Aquecimento ${i}`, value: 1000 + i });
    // What-if: the title search index (FTS5 trigram, one new segment per transaction) left out.
    if (withoutFts) await sql`drop trigger deals_fts_insert`.execute(db.kysely);
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db.kysely);
    if (!checkpoints) await sql.raw(`pragma wal_autocheckpoint = 0`).execute(db.kysely);
    await sql.raw(`pragma synchronous = ${synchronous}`).execute(db.kysely);
    const before = db.groupCommitStats?.();
    let next = 0;
    const caller = async (): Promise<void> => {
      for (let i = next++; i < count; i = next++) await deals.create(team.id, { title: `Venda de teste ${i}`, value: 50_000 + i, phase: 'proposta' });
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: callers }, caller));
    const ms = performance.now() - t0;
    const wal = checkpoints ? Number.NaN : statSync(`${file}-wal`).size;
    const after = db.groupCommitStats?.();
    const commits = before && after ? after.batches - before.batches : count;
    return { perSecond: (count * 1000) / ms, walBytesPerCreate: wal / count, commits };
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const out: Record<string, unknown> = {
  count,
  load: os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' '),
};
const line = (r: Awaited<ReturnType<typeof run>>): string =>
  `${r.perSecond.toFixed(0)} creates/s, ${(r.walBytesPerCreate / 1024).toFixed(1)} KiB of WAL per create, ${r.commits} COMMITs`;
for (const synchronous of ['NORMAL', 'OFF', 'FULL'] as const) out[`sequential, synchronous=${synchronous}`] = line(await run({ synchronous }));
out['sequential, synchronous=NORMAL, no deals FTS trigger (what-if)'] = line(await run({ withoutFts: true }));
// A/B back to back, twice, so a change of machine load shows as disagreement between the pairs.
for (const round of [1, 2]) {
  out[`${concurrency} at once, group commit off (${round})`] = line(await run({ callers: concurrency, groupCommit: false }));
  out[`${concurrency} at once, group commit on (${round})`] = line(await run({ callers: concurrency }));
}
// What `serve` pays on top: the checkpoints SQLite runs inside a COMMIT once the WAL reaches 1,000 pages.
for (const round of [1, 2]) {
  out[`${concurrency} at once, automatic checkpoints, group commit off (${round})`] = line(
    await run({ callers: concurrency, groupCommit: false, checkpoints: true }),
  );
  out[`${concurrency} at once, automatic checkpoints, group commit on (${round})`] = line(await run({ callers: concurrency, checkpoints: true }));
}
process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
