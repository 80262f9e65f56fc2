// A load generator in a process of its own, so that the test process stays responsive (an event
// loop busy with hundreds of sockets delays everything else it does, the test's own requests too).
//
//   node load-client.mjs <port> <apiKey> <dealId> <clients> <socketsPerClient> <outFile>
//
// Starts <clients> keep-alive agents with <socketsPerClient> loops each; every loop sends one request
// after another (POST /api/v1/deals, GET /api/v1/deals?limit=5, GET /api/v1/deals/<dealId>), each
// with its own X-Request-Id, and stops at its first connection error (the server is gone). Prints
// "warm" once 300 answers came back. When every loop has stopped (or after 90 s) it writes the
// records to <outFile> as JSON: [{ id, method, sentAt, doneAt, status?, error? }] and exits 0.
import http from 'node:http';
import { writeFileSync } from 'node:fs';

const [port, key, dealId, clients, sockets, outFile] = process.argv.slice(2);
const records = [];
let answered = 0;
let stop = false;
setTimeout(() => (stop = true), 90_000).unref();

function fire(agent, method, path, id, body) {
  const rec = { id, method };
  records.push(rec);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const finish = (patch) => {
      if (rec.doneAt !== undefined) return;
      Object.assign(rec, patch, { doneAt: Date.now() });
      resolve(rec);
    };
    const request = http.request(
      {
        host: '127.0.0.1',
        port: Number(port),
        method,
        path,
        agent,
        timeout: 30_000,
        headers: {
          authorization: `Bearer ${key}`,
          'x-request-id': id,
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (++answered === 300) process.stdout.write('warm\n');
          finish({ status: res.statusCode });
        });
        res.on('error', (e) => finish({ error: String(e) }));
      },
    );
    request.on('finish', () => (rec.sentAt = Date.now()));
    request.on('error', (e) => finish({ error: `${e.code ?? ''} ${e.message}` }));
    request.on('timeout', () => request.destroy(new Error('client timeout')));
    request.end(payload);
  });
}

const loops = [];
for (let c = 0; c < Number(clients); c++) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number(sockets) });
  for (let l = 0; l < Number(sockets); l++) {
    loops.push(
      (async () => {
        for (let n = 0; !stop; n++) {
          const id = `load-${c}-${l}-${n}`;
          const kind = (c + l + n) % 3;
          const rec =
            kind === 0
              ? await fire(agent, 'POST', '/api/v1/deals', id, { title: `Carga ${id}`, value: 1000 + n })
              : kind === 1
                ? await fire(agent, 'GET', '/api/v1/deals?limit=5', id)
                : await fire(agent, 'GET', `/api/v1/deals/${dealId}`, id);
          if (rec.error) break; // the server is gone for this connection: stop, as a real client would back off
        }
      })(),
    );
  }
}
await Promise.all(loops);
writeFileSync(outFile, JSON.stringify(records));
process.exit(0);
