// The shapes of the panel's JSON routes (/panel/api), taken from the server's own OpenAPI document:
// schema.d.ts is written by `npm run panel:generate` (openapi-typescript over /panel/api/openapi.json,
// with a drift test), so a change on the server shows up here as a type error.
import type { FetchResponse } from 'openapi-fetch';
import type { operations } from './schema';

type Op = keyof operations;
type Responses<O extends Op> = operations[O]['responses'];
/** The JSON body of one answer of an operation. */
type Answer<O extends Op, S> = S extends keyof Responses<O> ? (Responses<O>[S] extends { content: { 'application/json': infer B } } ? B : never) : never;
/**
 * The `data` of a success envelope, exactly as the typed client answers it (openapi-fetch's reading of
 * the success statuses, so a page's types and the client's never disagree). `_S` names the status for the reader.
 */
type Data<O extends Op, _S = 200> = NonNullable<FetchResponse<operations[O], object, 'application/json'>['data']> extends { data: infer D } ? D : never;
type Item<T> = T extends readonly (infer I)[] ? I : never;
/** The JSON request body of an operation. */
type Body<O extends Op> = operations[O] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type Session = Data<'getSession'>;
export type User = Session['user'];
export type Team = Session['team'];
export type Role = User['role'];

export type TeamSettings = Data<'getTeam'>;
export type TeamInput = Body<'updateTeam'>;

export type Member = Item<Data<'listUsers'>>;
export type InvitedMember = Data<'inviteUser', 201> extends never ? Data<'inviteUser'> : Data<'inviteUser', 201>;
export type PasswordLink = Data<'getPasswordLink'>;
export type PasswordLinkAnswer = Data<'newPasswordLink'> extends never ? Data<'newPasswordLink', 201> : Data<'newPasswordLink'>;

export type ApiKey = Item<Data<'listKeys'>>;
export type CreatedApiKey = Data<'createKey', 201> extends never ? Data<'createKey'> : Data<'createKey', 201>;
export type Scope = Item<Data<'listScopes'>>;
export type EventType = Item<Data<'listEventTypes'>>;

export type Webhook = Data<'getWebhook'>;
export type CreatedWebhook = Data<'createWebhook', 201> extends never ? Data<'createWebhook'> : Data<'createWebhook', 201>;
export type WebhookInput = Body<'updateWebhook'>;
export type WebhookSecret = Data<'revealWebhookSecret'>;
export type RotatedWebhook = Data<'rotateWebhookSecret'>;
export type Delivery = Item<Data<'listWebhookDeliveries'>>;
export type DeliveryAttempt = Item<Delivery['attempts']>;
export type Pagination = Answer<'listWebhookDeliveries', 200> extends { pagination: infer P } ? P : never;
export type Recovered = Data<'recoverWebhook', 202> extends never ? Data<'recoverWebhook'> : Data<'recoverWebhook', 202>;

export type Phase = Item<Data<'listBoardPhases'>>;
export type BoardName = operations['listBoardPhases']['parameters']['path']['board'];
export type PhasesInput = Body<'replaceBoardPhases'>;

export type Person = Item<Data<'listPeople'>>;
export type LeadSettings = Data<'getLeadSettings'>;
export type LeadSettingsInput = Body<'updateLeadSettings'>;
export type Changes = Data<'getChanges'>;
export type Dashboard = Data<'getDashboard'>;
export type ProbabilityModel = NonNullable<Data<'getProbabilityModel'>>;

export type Deal = Data<'getPanelDeal'>;
export type DealCard = Item<Item<Data<'getDealsBoard'>['columns']>['items']>;
export type DealInput = Body<'createPanelDeal'>;
export type DealChanges = Body<'updatePanelDeal'>;
export type DealWin = Body<'winPanelDeal'>;
export type DealWon = Data<'winPanelDeal'>;

export type Vehicle = Data<'getPanelVehicle'>;
export type VehicleCard = Item<Item<Data<'getVehiclesBoard'>['columns']>['items']>;
export type VehicleInput = Body<'createPanelVehicle'>;
export type VehicleChanges = Body<'updatePanelVehicle'>;
export type VehicleFilters = NonNullable<operations['listPanelVehicles']['parameters']['query']>;

export type Client = Data<'getPanelClient'>;
export type ClientInput = Body<'createPanelClient'>;
export type ClientChanges = Body<'updatePanelClient'>;
export type ClientOverview = Data<'getClientOverview'>;

export type Activity = Item<Data<'listAgenda'>>;
export type ActivityInput = Body<'createPanelActivity'>;
export type AgendaFilters = NonNullable<operations['listAgenda']['parameters']['query']>;

export type FinancialRecord = Item<Data<'listPanelFinancial'>>;
export type FinancialInput = Body<'createPanelFinancial'>;
export type FinancialPayment = Body<'payPanelFinancial'>;
export type FinancialFilters = NonNullable<operations['listPanelFinancial']['parameters']['query']>;
export type FinancialSummary = Data<'getPanelFinancialSummary'>;
export type FinancialType = FinancialRecord['type'];
export type FinancialStatus = FinancialRecord['status'];

export type DealFilters = NonNullable<operations['listPanelDeals']['parameters']['query']>;
export type ClientFilters = NonNullable<operations['listPanelClients']['parameters']['query']>;

/** One invalid field of a refused form, as `error.errors` lists them. */
export interface FieldProblem {
  field: string;
  message: string;
}

export interface ErrorBody {
  error: { code: string; message: string; field?: string; details?: unknown; errors?: FieldProblem[] };
}
