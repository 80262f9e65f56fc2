import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { createHarness, type Harness } from '../support/harness.js';
import { signedIn, TEST_HASHING } from '../support/panel.js';

/** Issue 25 (agenda rows, server side): each activity answered with its linked deal, client and vehicle by name; "Todas" in date order. */
describe.each(DIALECTS)('agenda rows (%s)', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(dialect, { passwordHashing: TEST_HASHING });
  });
  afterAll(() => h.close());

  it('rows carry the linked names; all is by due time', async () => {
    const { browser } = await signedIn(h, 'seller');
    const client = (await browser.post('/clients', { type: 'PF', name: 'Ana Souza' })).body.data;
    const deal = (await browser.post('/deals', { title: 'Onix 2022 para Ana', client_id: client.id })).body.data;
    const vehicle = (await browser.post('/vehicles', { title: 'Onix LT', brand: 'Chevrolet', model: 'Onix' })).body.data;
    const add = async (title: string, due_at: string, links: object) =>
      (await browser.post('/activities', { type: 'call', title, due_at, ...links })).body.data as {
        id: string;
        deal: unknown;
        client: unknown;
        vehicle: unknown;
      };
    const late = await add('Depois', '2030-03-01T12:00:00Z', { deal_id: deal.id, client_id: client.id });
    const soon = await add('Antes', '2030-01-01T12:00:00Z', { vehicle_id: vehicle.id });
    const middle = await add('Meio', '2030-02-01T12:00:00Z', {});
    expect(late).toMatchObject({ deal: { id: deal.id, name: 'Onix 2022 para Ana' }, client: { id: client.id, name: 'Ana Souza' }, vehicle: null });

    const all = (await browser.get('/activities?view=all')).body.data;
    expect(all.map((a: { id: string }) => a.id)).toEqual([soon.id, middle.id, late.id]);
    expect(all[0]).toMatchObject({ vehicle: { id: vehicle.id, name: 'Onix LT' }, deal: null, client: null });
    expect((await browser.get('/activities?sort=-due_at')).body.data.map((a: { id: string }) => a.id)).toEqual([late.id, middle.id, soon.id]);
    expect((await browser.get(`/activities/${late.id}`)).body.data.client).toEqual({ id: client.id, name: 'Ana Souza' });
    expect((await browser.get(`/clients/${client.id}/overview`)).body.data.activities[0].deal).toEqual({ id: deal.id, name: 'Onix 2022 para Ana' });
    expect((await browser.post(`/activities/${late.id}/complete`)).body.data).toMatchObject({ status: 'completed', deal: { id: deal.id } });
  });
});
