export { buildApp, type AppOptions } from './app.js';
export { loadConfig, type Config } from './config.js';
export { startServer, runServer } from './server.js';
export { createDb, type Db } from './storage/db.js';
export { migrateToLatest } from './storage/migrator.js';
export { isValidCpf, isValidCnpj, normalizeTaxId } from './domain/shared/tax-id.js';
export { verifyWebhookSignature, signPayload, SIGNATURE_HEADER, TIMESTAMP_HEADER, EVENT_ID_HEADER } from './domain/webhooks/signature.js';
