export { buildApp, type AppOptions } from './app.js';
export { loadConfig, type Config } from './config.js';
export { startServer, runServer } from './server.js';
export { createDb, type Db } from './storage/db.js';
export { migrateToLatest } from './storage/migrator.js';
export { isValidCpf, isValidCnpj, normalizeTaxId } from './domain/shared/tax-id.js';
