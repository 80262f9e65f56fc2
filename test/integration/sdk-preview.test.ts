import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createServices, type Services } from '../../src/app/services.js';
import { AutosalesClient, PermissionDeniedError, type Activity, type FinancialRecord } from '../../packages/sdk/src/index.js';
import { DIALECTS, openTestDb, type TestDb } from '../support/dialects.js';

/** The SDK's preview methods (activities, financial, webhooks) against the real service over HTTP. */

const PREVIEW_SCOPES = ['financial:read', 'financial:write', 'activities:read', 'activities:write', 'webhooks:read', 'webhooks:write'];

describe.each(DIALECTS)('SDK preview methods (%s)', (dialect) => {
  let testDb: TestDb;
  let app: FastifyInstance;
  let services: Services;
  let baseUrl: string;

  beforeAll(async () => {
    testDb = await openTestDb(dialect);
    services = createServices(testDb.db);
    app = await buildApp({ db: testDb.db, services });
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await testDb?.close();
  });

  async function client(preview: boolean, scopes = PREVIEW_SCOPES) {
    const team = await services.teams.create({ name: `SDK preview ${dialect} ${Math.random()}` });
    if (preview) await services.teams.setPreview(team.id, { enable: ['financial', 'activities', 'webhooks'] });
    const key = await services.keys.create({ teamId: team.id, scopes });
    return new AutosalesClient({ apiKey: key.key, baseUrl, maxRetries: 0 });
  }

  it('without the preview: NOT_IMPLEMENTED; without the scope: PermissionDeniedError', async () => {
    const off = await client(false);
    await expect(off.activities.list()).rejects.toMatchObject({ status: 501, code: 'NOT_IMPLEMENTED' });
    await expect(off.financial.summary()).rejects.toMatchObject({ status: 501, code: 'NOT_IMPLEMENTED' });
    const noScope = await client(true, ['deals:read']);
    await expect(noScope.webhooks.list()).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('activities, financial records and webhooks end to end', async () => {
    const sdk = await client(true);
    const a: Activity = await sdk.activities.create({ type: 'task', title: 'Vistoria', due_at: '2020-01-01T12:00:00Z' });
    expect((await sdk.activities.overdue()).data.map((x) => x.id)).toEqual([a.id]);
    expect((await sdk.activities.complete(a.id)).status).toBe('completed');
    expect((await sdk.activities.update(a.id, { status: 'pending' })).completed_at).toBeNull();
    expect((await sdk.activities.cancel(a.id)).status).toBe('cancelled');
    expect((await sdk.activities.get(a.id)).status).toBe('cancelled');
    const seen: string[] = [];
    for await (const x of sdk.activities.iterate({ status: 'cancelled' })) seen.push(x.id);
    expect(seen).toEqual([a.id]);

    const r: FinancialRecord = await sdk.financial.create({
      type: 'revenue',
      category: 'comissao',
      description: 'Comissão',
      amount: 1500.25,
      due_date: '2026-11-30',
    });
    expect((await sdk.financial.update(r.id, { status: 'paid', payment_method: 'pix' })).status).toBe('paid');
    const summary = await sdk.financial.summary({ from: '2026-11-01', to: '2026-11-30' });
    expect(summary.totals).toEqual({ revenue: 1500.25, expense: 0, cost: 0, net: 1500.25 });
    expect((await sdk.financial.list({ type: 'revenue' })).pagination.total).toBe(1);
    expect((await sdk.financial.overdue()).data).toEqual([]);
    expect((await sdk.financial.cancel(r.id)).status).toBe('cancelled');
    expect((await sdk.financial.get(r.id)).status).toBe('cancelled');

    const hook = await sdk.webhooks.create({ url: 'https://example.com/sdk', events: ['financial.paid'] });
    expect(hook.secret).toMatch(/^whsec_/);
    expect((await sdk.webhooks.list()).map((w) => w.id)).toEqual([hook.id]);
    expect((await sdk.webhooks.update(hook.id, { status: 'disabled' })).status).toBe('disabled');
    expect(await sdk.webhooks.delete(hook.id)).toEqual({ id: hook.id, deleted: true });
  });
});
