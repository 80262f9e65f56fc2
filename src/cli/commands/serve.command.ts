import { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { createDb } from '../../storage/db.js';
import { migrateToLatest, migrationNotes } from '../../storage/migrator.js';
import { runServer } from '../../server.js';

export function serveCommand(): Command {
  return new Command('serve').description('apply pending migrations and serve the API (env: PORT, HOST, DATABASE_URL, LOG_LEVEL)').action(async () => {
    await runServer(loadConfig());
  });
}

export function migrateCommand(): Command {
  return new Command('migrate').description('apply pending database migrations').action(async () => {
    const db = createDb(loadConfig().databaseUrl);
    try {
      const applied = await migrateToLatest(db);
      process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Database is up to date.\n');
      // What the migrations just applied left for the operator (e.g. 0018: records whose store_id names no store).
      for (const note of await migrationNotes(db, applied)) process.stdout.write(`Note (${note.migration}): ${note.note}\n`);
    } finally {
      await db.close();
    }
  });
}
