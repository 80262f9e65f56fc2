import type { operations, webhooks } from './schema.js';

/**
 * Named types for the API's requests and answers, all taken from the generated `schema.d.ts`
 * (openapi-typescript over the service's own OpenAPI document): never written by hand, so they
 * follow the service's route schemas.
 */

type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type SuccessOf<O extends { responses: object }, S extends keyof O['responses']> = JsonOf<O['responses'][S]>;
type DataOf<O extends { responses: object }, S extends keyof O['responses']> = SuccessOf<O, S> extends { data: infer D } ? D : never;
type ItemOf<O extends { responses: object }, S extends keyof O['responses']> = DataOf<O, S> extends ReadonlyArray<infer I> ? I : never;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type BodyOf<O> = O extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;

/** The generated `paths`, `operations` and `webhooks` interfaces, for anything not named below. */
export type { paths, operations, webhooks } from './schema.js';

// Deals
/** A deal as `GET /deals/:id` and the lists return it. */
export type Deal = DataOf<operations['getDeal'], 200>;
export type DealListParams = QueryOf<operations['listDeals']>;
export type DealCreateBody = BodyOf<operations['createDeal']>;
export type DealUpdateBody = BodyOf<operations['updateDeal']>;
/** The answer of `PUT /deals/:id`: id, the summary fields, every field sent, and updated_at. */
export type DealUpdated = DataOf<operations['updateDeal'], 200>;
export type DealArchived = DataOf<operations['archiveDeal'], 200>;

// Clients
/** A client (PF or PJ: discriminate on `type`) as `GET /clients/:id` returns it. */
export type Client = DataOf<operations['getClient'], 200>;
/** The shorter client of `GET /clients`. */
export type ClientListItem = ItemOf<operations['listClients'], 200>;
export type ClientListParams = QueryOf<operations['listClients']>;
export type ClientCreateBody = BodyOf<operations['createClient']>;
export type ClientUpdateBody = BodyOf<operations['updateClient']>;
/** The answer of `PUT /clients/:id`: id, every field sent (status when reactivated), and updated_at. */
export type ClientUpdated = DataOf<operations['updateClient'], 200>;
export type ClientDeactivated = DataOf<operations['deactivateClient'], 200>;

// Vehicles
/** A vehicle as `GET /vehicles/:id` and the lists return it. */
export type Vehicle = DataOf<operations['getVehicle'], 200>;
export type VehicleListParams = QueryOf<operations['listVehicles']>;
export type VehicleCreateBody = BodyOf<operations['createVehicle']>;
export type VehicleUpdateBody = BodyOf<operations['updateVehicle']>;
/** The answer of `PUT /vehicles/:id`: id, title, brand, model, price, phase, status, every other field that changed, and updated_at. */
export type VehicleUpdated = DataOf<operations['updateVehicle'], 200>;
export type VehicleArchived = DataOf<operations['archiveVehicle'], 200>;

// Stores
/** A store of the team, as `GET /stores/:id` and the list return it. */
export type Store = DataOf<operations['getStore'], 200>;
export type StoreListParams = QueryOf<operations['listStores']>;

// Leads
export type LeadCreateBody = BodyOf<operations['createLead']>;
/** The answer of `POST /leads` (201 with a new deal, 200 when joined to a recent one or repeated): the deal, the client, and who took it. */
export type LeadResult = DataOf<operations['createLead'], 201>;

// Lists
export type Pagination = SuccessOf<operations['listDeals'], 200>['pagination'];
/** What the list methods resolve to: one page of records and where it sits. */
export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

// Webhooks
/** Every event kind of the contract. */
export type WebhookEventType = Extract<keyof webhooks, string>;
type EventOf<K extends keyof webhooks> = webhooks[K] extends { post: infer P } ? BodyOf<P> : never;
/** A webhook delivery's JSON body, discriminated on `type` (parse it only after verifying the signature). */
export type WebhookEvent = { [K in WebhookEventType]: EventOf<K> }[WebhookEventType];

// Preview areas (the service answers 501 NOT_IMPLEMENTED unless the team's preview is on; see README)
/** An activity (task, deadline, meeting, call, e-mail or note). */
export type Activity = DataOf<operations['getActivity'], 200>;
export type ActivityListParams = QueryOf<operations['listActivities']>;
export type ActivityCreateBody = BodyOf<operations['createActivity']>;
export type ActivityUpdateBody = BodyOf<operations['updateActivity']>;
/** A financial record (revenue, expense or cost). */
export type FinancialRecord = DataOf<operations['getFinancialRecord'], 200>;
export type FinancialListParams = QueryOf<operations['listFinancialRecords']>;
export type FinancialCreateBody = BodyOf<operations['createFinancialRecord']>;
export type FinancialUpdateBody = BodyOf<operations['updateFinancialRecord']>;
export type FinancialSummary = DataOf<operations['getFinancialSummary'], 200>;
export type FinancialSummaryParams = QueryOf<operations['getFinancialSummary']>;
/** A webhook configuration (never its secret). */
export type WebhookConfig = ItemOf<operations['listWebhooks'], 200>;
/** A created webhook: the configuration and its signing secret, shown this once. */
export type WebhookCreated = DataOf<operations['createWebhook'], 201>;
export type WebhookCreateBody = BodyOf<operations['createWebhook']>;
export type WebhookUpdateBody = BodyOf<operations['updateWebhook']>;
export type WebhookDeleted = DataOf<operations['deleteWebhook'], 200>;
