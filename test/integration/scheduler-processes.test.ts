import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/services.js';
import { killAllChildren } from '../support/child.js';
import { DIALECTS, openTestDb, type TestDb } from '../support/dialects.js';
import { startWorker, type WorkerProcess } from '../support/processes.js';
import { startServe } from '../support/cli.js';
import { sleep, waitUntil } from '../support/wait.js';

/**
 * Exactly once across processes (issue 12 point 3): two `autosales worker` processes, each running
 * the scheduler every 100 ms against the same database, race over the same due rows. Records are due
 * in the past, so the real clock needs no waiting. Runs the built program (npm run build).
 */

const ACTIVITIES = 150;
const RECORDS = 150;

describe.each(DIALECTS)('scheduler in two processes (%s)', (dialect) => {
  let testDb: TestDb;
  let workers: WorkerProcess[] = [];

  beforeAll(async () => {
    testDb = await openTestDb(dialect);
  });
  afterEach(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGTERM', 10_000)));
    workers = [];
  });
  afterAll(async () => {
    killAllChildren();
    await testDb?.close();
  });

  it('each overdue event is recorded once although both processes claim', async () => {
    const s = createServices(testDb.db);
    const team = await s.teams.create({ name: `Corrida ${dialect}` });
    const past = new Date(Date.now() - 3_600_000).toISOString();
    for (let i = 0; i < ACTIVITIES; i++) await s.activities.create(team.id, { type: 'task', title: `A${i}`, due_at: past });
    for (let i = 0; i < RECORDS; i++)
      await s.financial.create(team.id, { type: 'cost', category: 'mecanica', description: `R${i}`, amount: 100 + i, due_date: '2026-01-10' });
    const env = { SCHEDULER_POLL_MS: '100', WEBHOOK_POLL_MS: '1000' };
    workers = [startWorker(testDb.url, env), startWorker(testDb.url, env)];
    const count = async () =>
      Number(
        (
          await testDb.db.kysely
            .selectFrom('events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('team_id', '=', team.id)
            .where('type', 'in', ['activity.overdue', 'financial.overdue'])
            .executeTakeFirstOrThrow()
        ).n,
      );
    await waitUntil(async () => (await count()) >= ACTIVITIES + RECORDS, 30_000, 'every overdue event');
    // Several more polls of both processes: nothing fires twice (a check that something does NOT happen).
    await sleep(500);
    expect(await count()).toBe(ACTIVITIES + RECORDS);
    const rows = await testDb.db.kysely
      .selectFrom('events')
      .select(['type', 'object'])
      .where('team_id', '=', team.id)
      .where('type', 'like', '%overdue')
      .execute();
    const subjects = new Set(rows.map((r) => `${r.type} ${(JSON.parse(r.object) as { id: string }).id}`));
    expect(subjects.size).toBe(ACTIVITIES + RECORDS);
    for (const w of workers) expect(w.output()).not.toMatch(/agendador: falha/);
  });

  it('serve runs the scheduler by default; SCHEDULER=off keeps it out', async () => {
    const s = createServices(testDb.db);
    const team = await s.teams.create({ name: `Serve ${dialect}` });
    const past = new Date(Date.now() - 60_000).toISOString();
    const off = await s.activities.create(team.id, { type: 'task', title: 'Desligado', due_at: past });
    const overdueOf = async (id: string) =>
      (
        await testDb.db.kysely.selectFrom('events').select(['type', 'object']).where('team_id', '=', team.id).where('type', '=', 'activity.overdue').execute()
      ).filter((e) => (JSON.parse(e.object) as { id: string }).id === id).length;
    const quiet = await startServe(testDb.url, { env: { SCHEDULER: 'off', SCHEDULER_POLL_MS: '100' } });
    workers.push(quiet);
    // Several polls' worth: nothing fires (a check that something does NOT happen).
    await sleep(600);
    expect(await overdueOf(off.id)).toBe(0);
    await quiet.stop('SIGTERM', 10_000);
    workers = [];
    const on = await startServe(testDb.url, { env: { SCHEDULER_POLL_MS: '100' } });
    workers.push(on);
    await waitUntil(async () => (await overdueOf(off.id)) === 1, 15_000, 'the overdue event from serve');
  });
});
