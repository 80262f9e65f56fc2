import { createServer } from 'node:http';
import { AutosalesClient, verifyWebhookSignature } from '@autosales/sdk';

const autosales = new AutosalesClient({ baseUrl: process.env.AUTOSALES_URL, apiKey: process.env.AUTOSALES_API_KEY });
const client = await autosales.clients.create({ type: 'PF', name: 'Ana Beatriz Souza', email: 'ana@example.com.br' });
await autosales.deals.create({ title: 'Toyota Corolla XEi 2024', value: 149990, client_id: client.id });
for await (const deal of autosales.deals.iterate({ limit: 100 })) console.log(deal.phase, deal.title, deal.client?.name ?? '');
createServer(async (req, res) => { // webhook receiver: check the signature on the raw body, before parsing it
  const chunks = []; for await (const chunk of req) chunks.push(chunk);
  res.writeHead(verifyWebhookSignature(Buffer.concat(chunks), req.headers, process.env.AUTOSALES_WEBHOOK_SECRET) ? 204 : 401).end();
}).listen(Number(process.env.PORT ?? 3001), function () { console.log(`webhook receiver on port ${this.address().port}`); });
