import { Type, type TSchema } from 'typebox';
import { ErrorEnvelope, nullable } from '../schemas/common.schema.js';
import { Timestamp } from '../schemas/responses.schema.js';
import { ROLES } from '../../domain/users/users.types.js';
import { PLANS } from '../../domain/teams/teams.types.js';

/** Panel answers are closed like the API's: an undocumented field fails the test suite's check. */
const closed = { additionalProperties: false } as const;
const Id = Type.String({ format: 'uuid' });

export const Success = <T extends TSchema>(data: T) => Type.Object({ success: Type.Literal(true), data }, closed);
export const Role = Type.Enum([...ROLES], { description: 'owner (everything), manager (records, boards, phases), seller (records).' });

export const SessionUser = Type.Object({ id: Id, email: Type.String(), name: Type.String(), role: Role }, closed);
export const SessionTeam = Type.Object(
  {
    id: Id,
    name: Type.String(),
    plan: Type.Enum([...PLANS]),
    time_zone: Type.String({ description: 'IANA time zone of the team (America/Sao_Paulo by default).' }),
  },
  closed,
);
export const SessionAnswer = Success(
  Type.Object(
    {
      user: SessionUser,
      team: SessionTeam,
      csrf_token: Type.String({ description: 'Send it back in the X-CSRF-Token header of every POST, PUT, PATCH and DELETE of this session.' }),
    },
    closed,
  ),
);

export const User = Type.Object(
  {
    id: Id,
    team_id: Id,
    email: Type.String(),
    name: Type.String(),
    role: Role,
    active: Type.Boolean(),
    has_password: Type.Boolean({ description: 'False until an invited user follows their link.' }),
    takes_leads: Type.Boolean({ description: 'Whether the round-robin gives them leads (on by default for sellers).' }),
    deactivated_at: nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  closed,
);

export const SignInBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 320 }), password: Type.String({ minLength: 1, maxLength: 1000 }) },
  closed,
);
export const PasswordBody = Type.Object({ password: Type.String({ maxLength: 1000 }) }, closed);
export const ChangePasswordBody = Type.Object({ current_password: Type.String({ maxLength: 1000 }), new_password: Type.String({ maxLength: 1000 }) }, closed);
export const TokenParams = Type.Object({ token: Type.String({ maxLength: 100 }) });
export const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export const LinkInfo = Success(Type.Object({ email: Type.String(), name: Type.String() }, closed));

/** The error envelope with the messages a route may answer (the panel's OpenAPI document lists them). */
export const failure = (description: string, ...examples: Array<[code: string, message: string]>) => ({
  ...ErrorEnvelope,
  description,
  examples: examples.map(([code, message]) => ({ success: false, error: { code, message } })),
});

export const NoContent = Type.Null({ description: 'Done; no body.' });

export const Page = <T extends TSchema>(item: T) =>
  Type.Object(
    {
      success: Type.Literal(true),
      data: Type.Array(item),
      pagination: Type.Object({ page: Type.Integer(), limit: Type.Integer(), total: Type.Integer(), pages: Type.Integer() }, closed),
    },
    closed,
  );
export const List = <T extends TSchema>(item: T) => Type.Object({ success: Type.Literal(true), data: Type.Array(item) }, closed);

export const Team = Type.Object(
  {
    id: Id,
    name: Type.String(),
    plan: Type.Enum([...PLANS]),
    alert_email: nullable(Type.String()),
    time_zone: Type.String({ description: 'IANA time zone (America/Sao_Paulo by default): due dates and overdue records follow it.' }),
    created_at: Timestamp,
  },
  closed,
);
export const TeamBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    alert_email: Type.Optional(nullable(Type.String({ maxLength: 254 }))),
    time_zone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA name, e.g. America/Manaus.' })),
  },
  closed,
);

export const UserCreateBody = Type.Object(
  {
    email: Type.String({ maxLength: 320 }),
    name: Type.String({ maxLength: 200 }),
    role: Type.Enum([...ROLES]),
    takes_leads: Type.Optional(Type.Boolean({ description: 'Absent: on for sellers, off for managers and owners.' })),
  },
  closed,
);
export const UserUpdateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    role: Type.Optional(Type.Enum([...ROLES])),
    active: Type.Optional(Type.Boolean()),
    takes_leads: Type.Optional(Type.Boolean()),
  },
  closed,
);
export const UserWithLink = Type.Object(
  {
    ...User.properties,
    set_password_url: Type.String({ description: 'One-time link (72 h) for the person to choose a password; shown once.' }),
    set_password_expires_at: Timestamp,
  },
  closed,
);
export const PasswordLinkAnswer = Type.Object({ set_password_url: Type.String(), set_password_expires_at: Timestamp }, closed);

export const ApiKey = Type.Object(
  {
    id: Id,
    name: nullable(Type.String()),
    prefix: Type.String({ description: 'First characters of the key, to recognise it.' }),
    scopes: Type.Array(Type.String()),
    created_at: Timestamp,
    last_used_at: nullable(Timestamp),
    revoked_at: nullable(Timestamp),
  },
  closed,
);
export const ApiKeyCreated = Type.Object({ ...ApiKey.properties, key: Type.String({ description: 'The key itself: shown this once, never again.' }) }, closed);
export const KeyCreateBody = Type.Object(
  { name: Type.String({ maxLength: 100 }), scopes: Type.Array(Type.String({ maxLength: 50 }), { maxItems: 50 }) },
  closed,
);

export const ScopeItem = Type.Object({ scope: Type.String(), label: Type.String() }, closed);
export const EventTypeItem = Type.Object(
  {
    type: Type.String(),
    area: Type.String({ description: 'deal, client, vehicle, activity, financial' }),
    area_label: Type.String(),
    label: Type.String(),
    emitted: Type.Boolean({ description: 'False for kinds the contract announces that nothing emits yet.' }),
  },
  closed,
);

const webhookFields = {
  id: Id,
  url: Type.String(),
  description: nullable(Type.String()),
  events: Type.Array(Type.String(), { description: 'Subscribed kinds; empty means every kind.' }),
  enabled: Type.Boolean(),
  status: Type.Enum(['enabled', 'disabled']),
  disabled_reason: nullable(Type.String({ description: 'Why it is disabled (manually, or after repeated failures).' })),
  disabled_at: nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
  success_rate: nullable(Type.Number({ minimum: 0, maximum: 1, description: 'Share of deliveries finished in the last 30 days that succeeded.' })),
  last_delivery_at: nullable(Timestamp),
  last_delivery_status: nullable(Type.Integer({ description: 'HTTP status of the latest attempt; null without an answer.' })),
  last_delivery_ok: nullable(Type.Boolean()),
};
export const Webhook = Type.Object(webhookFields, closed);
export const WebhookWithSecret = Type.Object({ ...webhookFields, secret: Type.String({ description: 'The signing secret (whsec_…).' }) }, closed);
export const WebhookCreateBody = Type.Object(
  {
    url: Type.String({ maxLength: 2048 }),
    description: Type.Optional(nullable(Type.String({ maxLength: 500 }))),
    events: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })),
  },
  closed,
);
export const WebhookUpdateBody = Type.Object(
  {
    url: Type.Optional(Type.String({ maxLength: 2048 })),
    description: Type.Optional(nullable(Type.String({ maxLength: 500 }))),
    events: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })),
    enabled: Type.Optional(Type.Boolean()),
  },
  closed,
);
export const Secret = Type.Object({ id: Id, secret: Type.String() }, closed);
export const Attempt = Type.Object(
  {
    attempt: Type.Integer(),
    attempted_at: Timestamp,
    status_code: nullable(Type.Integer()),
    error_class: nullable(Type.String()),
    duration_ms: Type.Integer(),
    response_body: nullable(Type.String({ description: 'The start of the answer body.' })),
    next_attempt_at: nullable(Timestamp),
  },
  closed,
);
export const Delivery = Type.Object(
  {
    id: Id,
    event_id: Type.String(),
    event_type: Type.String(),
    status: Type.Enum(['pending', 'succeeded', 'failed']),
    attempts_count: Type.Integer(),
    next_attempt_at: nullable(Timestamp),
    last_attempt_at: nullable(Timestamp),
    completed_at: nullable(Timestamp),
    created_at: Timestamp,
    attempts: Type.Array(Attempt),
  },
  closed,
);
export const Queued = Type.Object({ event_id: Type.String(), webhook_ids: Type.Array(Id) }, closed);
export const Recovered = Type.Object({ webhook_id: Id, queued: Type.Integer() }, closed);
export const RecoverBody = Type.Object({ since: Type.String({ format: 'date-time', description: 'ISO 8601, e.g. 2026-11-22T10:00:00Z' }) }, closed);
export const PageQuery = Type.Object(
  { page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
  closed,
);
export const DeliveryParams = Type.Object({ id: Type.String({ maxLength: 100 }), deliveryId: Type.String({ maxLength: 100 }) });

export const BoardParams = Type.Object({ board: Type.String({ maxLength: 20, description: 'deals (the pipeline) or vehicles (the vehicle board).' }) });
export const BoardPhase = Type.Object(
  {
    name: Type.String({ description: 'What the API reads and writes (deal.phase, vehicle.phase); never changes.' }),
    label: Type.String({ description: 'What people read: Negociação for negociacao. Editable.' }),
    position: Type.Integer(),
    probability: Type.Optional(Type.Number({ description: 'Suggested win probability, percent (deal pipeline only).' })),
  },
  closed,
);
export const PhasesBody = Type.Object(
  {
    phases: Type.Array(
      Type.Object(
        {
          name: Type.Optional(
            Type.String({ maxLength: 100, description: 'A kept phase: its name. A name that is not one of the board’s is read as a new phase’s label.' }),
          ),
          label: Type.Optional(
            Type.String({
              maxLength: 100,
              description:
                'A new phase: its label alone (the name is derived once: "Aguardando financiamento" -> aguardando_financiamento). A kept phase: its new label.',
            }),
          ),
          probability: Type.Optional(Type.Number({ description: 'Deal pipeline only; a kept phase without one keeps its own.' })),
        },
        closed,
      ),
      {
        maxItems: 100,
        description:
          'The whole board, in order. Relabelling keeps the name; a phase left out is removed. Two phases may not share a name or label once case, accents, spaces and invisible characters are ignored (400 Fase já existe).',
      },
    ),
  },
  closed,
);

// ---- Boards and records (PANEL2.md) ----
const Ref = Type.Object({ id: Type.String(), name: Type.String() }, closed);
export const DealCard = Type.Object(
  {
    id: Id,
    title: Type.String(),
    value: nullable(Type.Number()),
    currency: Type.Literal('BRL'),
    priority: Type.String(),
    phase: Type.String(),
    status: Type.String(),
    client: nullable(Ref),
    responsible: nullable(Ref),
    has_overdue_activity: Type.Boolean({ description: 'An open activity of the deal is past its due time.' }),
    ai_win_probability: nullable(Type.Integer({ minimum: 0, maximum: 100, description: "The deal's win probability (null without a model)." })),
    updated_at: Timestamp,
  },
  { ...closed, title: 'DealCard' },
);
export const CardPage = <T extends TSchema>(card: T) =>
  Type.Object({ items: Type.Array(card), has_more: Type.Boolean({ description: 'More cards follow: ask the column route with the next offset.' }) }, closed);
export const DealColumn = Type.Object(
  {
    phase: Type.String(),
    label: Type.String({ description: "The phase's label." }),
    probability: Type.Integer(),
    count: Type.Integer({ description: 'Deals of the column (with the filters), not only the ones answered.' }),
    total_value: Type.Number({ description: 'Summed value (BRL) of the deals of the column.' }),
    items: Type.Array(DealCard),
    has_more: Type.Boolean(),
  },
  closed,
);
const BoardFilters = {
  responsible_id: Type.Optional(Type.String({ maxLength: 255 })),
  store_id: Type.Optional(Type.String({ maxLength: 255 })),
  source: Type.Optional(Type.String({ maxLength: 100 })),
  search: Type.Optional(Type.String({ maxLength: 200 })),
};
export const DealBoardQuery = Type.Object({ ...BoardFilters, per_column: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) });
export const ColumnQuery = <P extends Record<string, TSchema>>(filters: P) =>
  Type.Object({
    ...filters,
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  });
export const DealColumnQuery = ColumnQuery(BoardFilters);
export const PhaseParams = Type.Object({ phase: Type.String({ maxLength: 50 }) });
export const Person = Type.Object({ id: Id, name: Type.String(), role: Role, active: Type.Boolean() }, { ...closed, title: 'Person' });
export const ChangesQuery = Type.Object({ after: Type.Optional(Type.String({ maxLength: 100, description: 'The cursor of the previous answer.' })) });
export const Changes = Type.Object(
  {
    cursor: nullable(Type.String({ description: 'Send it as `after` next time (null: the team has no events yet).' })),
    types: Type.Array(Type.String(), { description: 'The event types recorded since `after` (each once), e.g. deal.created.' }),
  },
  closed,
);

export const VehicleCard = Type.Object(
  {
    id: Id,
    title: Type.String(),
    brand: Type.String(),
    model: Type.String(),
    price: nullable(Type.Number()),
    plate: nullable(Type.String()),
    model_year: nullable(Type.Integer()),
    mileage: nullable(Type.Integer()),
    phase: Type.String(),
    status: Type.String(),
    days_in_stock: Type.Integer({ description: 'Whole days since the vehicle was registered.' }),
    created_at: Timestamp,
  },
  { ...closed, title: 'VehicleCard' },
);
export const VehicleColumn = Type.Object(
  { phase: Type.String(), label: Type.String(), count: Type.Integer(), items: Type.Array(VehicleCard), has_more: Type.Boolean() },
  closed,
);
const VehicleFilters = {
  status: Type.Optional(
    Type.Enum(['ativo', 'vendido', 'arquivado'], { description: 'ativo (in stock, the default), vendido (sold) or arquivado (archived).' }),
  ),
  search: Type.Optional(Type.String({ maxLength: 200 })),
  brand: Type.Optional(Type.String({ maxLength: 100 })),
  store_id: Type.Optional(Type.String({ maxLength: 255 })),
};
export const VehicleBoardQuery = Type.Object({ ...VehicleFilters, per_column: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) });
export const VehicleColumnQuery = ColumnQuery(VehicleFilters);
