// A load generator in a process of its own, so that the test process stays responsive (an event
// loop busy with hundreds of sockets delays everything else it does, the test's own requests too).
//
//   node load-client.mjs <port> <apiKey> <dealId> <clients> <socketsPerClient> <outFile>
//
// Starts <clients> keep-alive agents with <socketsPerClient> loops each. Every loop alternates a
// slow upload (POST /api/v1/deals: headers and the start of the body at once, the rest 1 to 3 s
// later, as a slow mobile client does) and a quick GET /api/v1/deals/<dealId>, each request with its
// own X-Request-Id, and stops at its first connection error (the server is gone). So nearly every
// loop has a request in flight at any moment, while the server stays far from saturation (a
// saturated server on a loaded CI machine would take seconds just to accept a connection).
//
// Prints "warm" once every loop has had an answer (all its connections are established and served).
// When every loop has stopped (or after 90 s) it writes the records to <outFile> as JSON:
//   [{ id, method, reused, startedAt, sentAt?, doneAt, status?, error? }]
// and exits 0. `startedAt`: headers written; `sentAt`: the whole request written; `reused`: sent on a
// keep-alive connection that had already served a request.
import http from 'node:http';
import { writeFileSync } from 'node:fs';

const [port, key, dealId, clients, sockets, outFile] = process.argv.slice(2);
const loopCount = Number(clients) * Number(sockets);
const records = [];
const loopsAnswered = new Set();
let warm = false;
let stop = false;
setTimeout(() => (stop = true), 90_000).unref();

function fire(agent, method, path, id, loop, body) {
  const rec = { id, method };
  records.push(rec);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    let timer;
    const finish = (patch) => {
      if (rec.doneAt !== undefined) return;
      clearTimeout(timer);
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
          loopsAnswered.add(loop);
          if (!warm && loopsAnswered.size === loopCount) {
            warm = true;
            process.stdout.write('warm\n');
          }
          finish({ status: res.statusCode });
        });
        res.on('error', (e) => finish({ error: String(e) }));
      },
    );
    request.on('socket', () => (rec.reused = request.reusedSocket));
    request.on('finish', () => (rec.sentAt = Date.now()));
    request.on('error', (e) => finish({ error: `${e.code ?? ''} ${e.message}` }));
    request.on('timeout', () => request.destroy(new Error('client timeout')));
    rec.startedAt = Date.now();
    if (payload === undefined) {
      request.end();
    } else {
      request.write(payload.slice(0, 10));
      timer = setTimeout(() => request.end(payload.slice(10)), 1_000 + Math.random() * 2_000);
    }
  });
}

const loops = [];
for (let c = 0; c < Number(clients); c++) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number(sockets) });
  for (let l = 0; l < Number(sockets); l++) {
    const loop = `${c}-${l}`;
    loops.push(
      (async () => {
        for (let n = 0; !stop; n++) {
          const id = `load-${loop}-${n}`;
          const rec =
            n % 2 === 0
              ? await fire(agent, 'POST', '/api/v1/deals', id, loop, { title: `Carga ${id}`, value: 1000 + n })
              : await fire(agent, 'GET', `/api/v1/deals/${dealId}`, id, loop);
          if (rec.error) break; // the server is gone for this connection: stop, as a real client would back off
        }
      })(),
    );
  }
}
await Promise.all(loops);
writeFileSync(outFile, JSON.stringify(records));
process.exit(0);
