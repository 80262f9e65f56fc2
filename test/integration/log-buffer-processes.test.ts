import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnChild, killAllChildren, type ChildHandle } from '../support/child.js';
import { ROOT, ensureBuilt, processDb, startServe, type ProcessDb, type ServerProcess } from '../support/cli.js';
import { waitUntil } from '../support/wait.js';

/**
 * Issue 15: the programs' log lines are buffered (src/process/logger.ts: one write per ~4 KiB or
 * per 100 ms instead of two syscalls and a thread hop per line). What must not change: a line
 * logged just before the process ends is in its output, whether it ends by the graceful SIGTERM
 * path, `process.exit`, or an uncaught error; a quiet process's lines still appear without an
 * exit; secrets are still redacted.
 */

beforeAll(() => {
  ensureBuilt();
}, 200_000);

const children: ChildHandle[] = [];
const databases: ProcessDb[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) await child.stop('SIGKILL', 5_000).catch(() => undefined);
  for (const db of databases.splice(0)) await db.cleanup().catch(() => undefined);
});
afterAll(() => killAllChildren());

const LOGGER = pathToFileURL(join(ROOT, 'dist', 'process', 'logger.js')).href;
const SECRET = 'ask_segredo-que-nunca-aparece-no-log';

/** A node process that logs with the programs' logger, then does `then` (an ES module body). */
function program(then: string): ChildHandle {
  const source = `
    import { createLogger } from ${JSON.stringify(LOGGER)};
    const logger = createLogger('info');
    for (let i = 0; i < 3; i++) logger.info({ i }, 'linha de antes');
    logger.info({ req: { headers: { authorization: 'Bearer ${SECRET}' } }, key: '${SECRET}' }, 'última linha');
    ${then}
  `;
  const child = spawnChild(process.execPath, ['--input-type=module', '-e', source], { name: 'logger program' });
  children.push(child);
  return child;
}

function linesOf(stdout: string): Array<Record<string, any>> {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);
}

function expectAllLines(stdout: string): void {
  const lines = linesOf(stdout);
  expect(lines.map((l) => l.msg)).toEqual(['linha de antes', 'linha de antes', 'linha de antes', 'última linha']);
  expect(stdout).not.toContain(SECRET);
  expect(lines[3]).toMatchObject({ key: '[Redacted]', req: { headers: { authorization: '[Redacted]' } } });
}

describe('buffered log lines of the programs', () => {
  it('a line logged just before an uncaught error is in the output', async () => {
    const child = program(`throw new Error('falha fatal');`);
    const exit = await child.waitExit(10_000);
    expect(exit.code).toBe(1);
    expect(child.stderr()).toContain('falha fatal');
    expectAllLines(child.stdout());
  });

  it('a line logged just before an unhandled rejection is in the output', async () => {
    const child = program(`Promise.reject(new Error('rejeição fatal'));`);
    const exit = await child.waitExit(10_000);
    expect(exit.code).toBe(1);
    expectAllLines(child.stdout());
  });

  it('a line logged just before process.exit is in the output', async () => {
    const child = program(`process.exit(3);`);
    expect((await child.waitExit(10_000)).code).toBe(3);
    expectAllLines(child.stdout());
  });

  it("a quiet process's lines appear without waiting for its exit", async () => {
    const child = program(`setInterval(() => undefined, 1_000);`);
    await waitUntil(() => child.stdout().includes('última linha'), 5_000, 'the buffered lines');
    expect(child.running()).toBe(true);
    expectAllLines(child.stdout());
  });
});

describe('autosales serve', () => {
  let server: ServerProcess;
  afterEach(async () => server?.stop('SIGKILL', 5_000).catch(() => undefined));

  it('the access-log line of the request answered just before a graceful SIGTERM is in the output', async () => {
    const db = await processDb('sqlite');
    databases.push(db);
    server = await startServe(db.url, { env: { LOG_LEVEL: 'info', RATE_LIMITS: 'off', WEBHOOK_WORKER: 'off', SCHEDULER: 'off' } });
    const res = await fetch(`${server.url}/api/v1/deals`, { headers: { 'x-request-id': 'ultima-antes-do-sigterm', authorization: `Bearer ${SECRET}` } });
    expect(res.status).toBe(401);
    await res.body?.cancel();
    const exit = await server.stop('SIGTERM', 15_000);
    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    const lines = linesOf(server.stdout());
    expect(lines.filter((l) => l.reqId === 'ultima-antes-do-sigterm' && l.msg === 'request completed')).toHaveLength(1);
    expect(lines.some((l) => l.signal === 'SIGTERM')).toBe(true);
    expect(server.output()).not.toContain(SECRET);
  }, 60_000);
});
