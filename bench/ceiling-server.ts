// The ceiling: a bare Fastify server answering static JSON, no database, no hooks: one deal (against
// the reads by id) and one list page (the large team's default first page, against the default list).
// Run as a child process: node dist-bench/bench/ceiling-server.js <port> <deal.json> <page.json>
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [port, dealFile, pageFile] = process.argv.slice(2);
const deal = JSON.parse(readFileSync(dealFile!, 'utf8')) as Record<string, unknown>;
const page = JSON.parse(readFileSync(pageFile!, 'utf8')) as Record<string, unknown>;
const app = Fastify({ logger: false });
// Serialized on every request (like the service, which uses plain JSON.stringify), not cached as a string.
app.get('/api/v1/deals/:id', async () => ({ success: true, data: deal }));
app.get('/api/v1/deals', async () => ({ success: true, ...page }));
app.get('/health', async () => ({ success: true, data: { status: 'ok' } }));
await app.listen({ port: Number(port), host: '127.0.0.1' });
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
