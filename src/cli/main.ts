import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { AppError } from '../domain/shared/errors.js';
import { MigrationError } from '../storage/migrator.js';
import { aiCommand } from './commands/ai.command.js';
import { demoCommand } from './commands/demo.command.js';
import { keysCommand } from './commands/keys.command.js';
import { migrateCommand, serveCommand } from './commands/serve.command.js';
import { storesCommand } from './commands/stores.command.js';
import { teamsCommand } from './commands/teams.command.js';
import { webhooksCommand } from './commands/webhooks.command.js';
import { workerCommand } from './commands/worker.command.js';
import { usersCommand } from './commands/users.command.js';

/** One line for the operator; connection failures from the driver may carry their reason only in a code or in nested errors. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const nested = error instanceof AggregateError ? error.errors.find((e): e is Error => e instanceof Error) : undefined;
  const code = (error as { code?: string }).code;
  const message = error.message || nested?.message || code || error.name;
  return code === 'ECONNREFUSED' || nested ? `cannot connect to the database (${message})` : message;
}

const program = new Command('autosales')
  .description('autosales: sales-management API for car dealerships (server and admin commands)')
  .showHelpAfterError()
  .addCommand(serveCommand())
  .addCommand(migrateCommand())
  .addCommand(teamsCommand())
  .addCommand(storesCommand())
  .addCommand(keysCommand())
  .addCommand(webhooksCommand())
  .addCommand(workerCommand())
  .addCommand(demoCommand())
  .addCommand(usersCommand())
  .addCommand(aiCommand());

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Commander has already printed its own usage errors.
  if (error instanceof CommanderError) process.exit(error.exitCode || 1);
  process.stderr.write(`error: ${describeError(error)}\n`);
  const known = error instanceof AppError || error instanceof ConfigError || error instanceof MigrationError;
  if (!known && ['debug', 'trace'].includes(process.env.LOG_LEVEL ?? '')) process.stderr.write(`${(error as Error)?.stack}\n`);
  process.exit(1);
}
