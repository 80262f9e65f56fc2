// node dist-bench/bench/write-cost.js [count]
// Issue 15, point 3 (group commit on SQLite): what one POST /deals costs the database without HTTP.
// Creates `count` deals one after another through the deals service (one transaction each, as the
// API does) in a fresh SQLite file with one subscribed webhook, and reports creates/s, WAL bytes per
// create (automatic checkpoints off, so the WAL only grows), and the same run with
// synchronous=OFF and with synchronous=FULL to show what the commit's sync costs, and a what-if
// without the deals' FTS5 insert trigger.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createServices } from '../src/app/services.js';
import { createDb } from '../src/storage/db.js';
import { migrateToLatest } from '../src/storage/migrator.js';

const count = Number(process.argv[2] ?? 2000);

async function run(synchronous: 'NORMAL' | 'OFF' | 'FULL', withoutFts = false): Promise<{ perSecond: number; walBytesPerCreate: number }> {
  const dir = mkdtempSync(join(os.tmpdir(), 'autosales-write-cost-'));
  const file = join(dir, 'x.db');
  const db = createDb(`sqlite:${file}`);
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
    await sql.raw(`pragma wal_autocheckpoint = 0`).execute(db.kysely);
    await sql.raw(`pragma synchronous = ${synchronous}`).execute(db.kysely);
    const t0 = performance.now();
    for (let i = 0; i < count; i++) await deals.create(team.id, { title: `Venda de teste ${i}`, value: 50_000 + i, phase: 'proposta' });
    const ms = performance.now() - t0;
    const wal = statSync(`${file}-wal`).size;
    return { perSecond: (count * 1000) / ms, walBytesPerCreate: wal / count };
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
for (const mode of ['NORMAL', 'OFF', 'FULL'] as const) {
  const r = await run(mode);
  out[`synchronous=${mode}`] = `${r.perSecond.toFixed(0)} creates/s, ${(r.walBytesPerCreate / 1024).toFixed(1)} KiB of WAL per create`;
}
const noFts = await run('NORMAL', true);
out['synchronous=NORMAL, no deals FTS trigger (what-if)'] =
  `${noFts.perSecond.toFixed(0)} creates/s, ${(noFts.walBytesPerCreate / 1024).toFixed(1)} KiB of WAL per create`;
process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
