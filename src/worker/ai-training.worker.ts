// The thread a team's training runs on (ai-training-thread.ts starts it): its own database connection,
// the batch load, the features and the fit, so none of it holds the server's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { trainTeam } from '../domain/ai/train-team.js';
import { createDb } from '../storage/db.js';

const { url, teamId } = workerData as { url: string; teamId: string };
const db = createDb(url, { poolMax: 1 });
try {
  parentPort!.postMessage({ ok: true, outcome: await trainTeam(db.kysely, teamId) });
} catch (error) {
  parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
} finally {
  await db.close();
}
