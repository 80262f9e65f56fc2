import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { AppError } from '../errors.js';
import { MigrationError } from '../storage/migrator.js';
import { demoCommand } from './commands/demo.command.js';
import { keysCommand } from './commands/keys.command.js';
import { migrateCommand, serveCommand } from './commands/serve.command.js';
import { teamsCommand } from './commands/teams.command.js';

const program = new Command('autosales')
  .description('autosales: sales-management API for car dealerships (server and admin commands)')
  .showHelpAfterError()
  .addCommand(serveCommand())
  .addCommand(migrateCommand())
  .addCommand(teamsCommand())
  .addCommand(keysCommand())
  .addCommand(demoCommand());

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Commander has already printed its own usage errors.
  if (error instanceof CommanderError) process.exit(error.exitCode || 1);
  const known = error instanceof AppError || error instanceof ConfigError || error instanceof MigrationError;
  process.stderr.write(`error: ${known ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
}
