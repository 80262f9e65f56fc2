import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { buffer } from 'node:stream/consumers';
import { AutosalesClient, verifyWebhookSignature } from '@autosales/sdk';

// 1. A webhook receiver over HTTPS (webhooks are only sent to https:// URLs): check the signature on the raw body, before parsing it.
const receiver = createServer({ key: readFileSync(process.env.TLS_KEY_FILE), cert: readFileSync(process.env.TLS_CERT_FILE) }, async (req, res) => {
  const body = await buffer(req);
  const valid = verifyWebhookSignature(body, req.headers, process.env.AUTOSALES_WEBHOOK_SECRET);
  console.log(valid ? `received ${JSON.parse(body).type} ${req.headers['x-service-event-id']}` : 'refused a delivery: bad or stale signature');
  res.writeHead(valid ? 204 : 401).end();
});
receiver.listen(Number(process.env.RECEIVER_PORT ?? 3001), () => console.log(`webhook receiver on https://localhost:${receiver.address().port}/`));

// 2. The API: create a client and a deal (each one an event for a webhook pointing at the receiver), then page through every deal.
const autosales = new AutosalesClient({ baseUrl: process.env.AUTOSALES_URL, apiKey: process.env.AUTOSALES_API_KEY });
const client = await autosales.clients.create({ type: 'PF', name: 'Ana Beatriz Souza', email: 'ana@example.com.br' });
await autosales.deals.create({ title: 'Toyota Corolla XEi 2024', value: 149990, client_id: client.id });
for await (const deal of autosales.deals.iterate({ limit: 100 })) console.log(deal.phase, deal.title, deal.client?.name ?? '');
