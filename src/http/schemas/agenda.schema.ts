import { Type } from 'typebox';
import { ACTIVITY_SORT_FIELDS, ACTIVITY_STATUSES, ACTIVITY_TYPES } from '../../domain/activities/activities.types.js';
import { PRIORITIES } from '../../domain/deals/deals.types.js';
import {
  ALL_FINANCIAL_CATEGORIES,
  FINANCIAL_SORT_FIELDS,
  FINANCIAL_STATUSES,
  FINANCIAL_TYPES,
  PAYMENT_METHODS,
} from '../../domain/financial/financial.types.js';
import { EVENT_TYPES } from '../../domain/events/event-types.js';
import { MAX_MONEY } from '../../domain/shared/money.js';
import { WEBHOOK_STATUSES } from '../../domain/webhooks/webhooks.types.js';
import { DateOnly, ListQuery, OptionalText, Text, nullable } from './common.schema.js';
import { Timestamp } from './responses.schema.js';

/** Request and response shapes of the preview areas (activities, financial records, webhooks). */

const closed = { additionalProperties: false } as const;
const Id = Type.String({ format: 'uuid', examples: ['0193a1f2-5b7c-7d3e-9f10-2a3b4c5d6e7f'] });
const LinkId = Type.Optional(nullable(Type.String({ maxLength: 64 })));
const DateTime = Type.String({ format: 'date-time', maxLength: 64, examples: ['2026-12-01T14:00:00-03:00'] });
const sortDoc = (fields: readonly string[], dflt: string) => ({
  description: `One of ${fields.join(', ')}; prefix \`-\` for descending. Default \`${dflt}\`.`,
});

// ---------------------------------------------------------------------------------------------
// Activities

const activityEditable = {
  // Required on POST; checked by the route so the message can list this resource's types.
  type: Type.Optional(Type.Enum([...ACTIVITY_TYPES])),
  title: Type.Optional(Text(200)),
  description: OptionalText(10_000),
  priority: Type.Optional(Type.Enum([...PRIORITIES])),
  due_at: Type.Optional(nullable(DateTime)),
  deal_id: LinkId,
  client_id: LinkId,
  vehicle_id: LinkId,
  responsible_id: OptionalText(255),
};

export const ActivityCreateBody = Type.Object(
  { ...activityEditable, title: Text(200) },
  {
    examples: [{ type: 'call', title: 'Ligar para Ana sobre o financiamento', priority: 'alta', due_at: '2026-12-01T14:00:00-03:00' }],
  },
);

export const ActivityUpdateBody = Type.Object(
  { ...activityEditable, status: Type.Optional(Type.Enum([...ACTIVITY_STATUSES])) },
  { examples: [{ status: 'in_progress', due_at: '2026-12-02T10:00:00-03:00' }] },
);

export const ActivityListQuery = Type.Object({
  ...ListQuery,
  sort: Type.Optional(Type.String({ maxLength: 50, ...sortDoc(ACTIVITY_SORT_FIELDS, '-created_at (due_at on /overdue)') })),
  status: Type.Optional(Type.Enum([...ACTIVITY_STATUSES])),
  type: Type.Optional(Type.Enum([...ACTIVITY_TYPES])),
  priority: Type.Optional(Type.Enum([...PRIORITIES])),
  deal_id: Type.Optional(Type.String({ maxLength: 64 })),
  client_id: Type.Optional(Type.String({ maxLength: 64 })),
  vehicle_id: Type.Optional(Type.String({ maxLength: 64 })),
  responsible_id: Type.Optional(Type.String({ maxLength: 255 })),
  due_from: Type.Optional(DateOnly),
  due_to: Type.Optional(DateOnly),
});

export const Activity = Type.Object(
  {
    id: Id,
    type: Type.Enum([...ACTIVITY_TYPES]),
    title: Type.String(),
    description: nullable(Type.String()),
    status: Type.Enum([...ACTIVITY_STATUSES]),
    priority: Type.Enum([...PRIORITIES]),
    due_at: nullable(Timestamp),
    deal_id: nullable(Id),
    client_id: nullable(Id),
    vehicle_id: nullable(Id),
    responsible_id: nullable(Type.String()),
    completed_at: nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { ...closed, title: 'Activity' },
);

// ---------------------------------------------------------------------------------------------
// Financial records

const Amount = Type.Number({ exclusiveMinimum: 0, maximum: MAX_MONEY, examples: [65990.9] });

const financialEditable = {
  type: Type.Optional(Type.Enum([...FINANCIAL_TYPES])),
  category: Type.Optional(Type.Enum([...ALL_FINANCIAL_CATEGORIES], { description: "Must belong to the record's type (revenue, expense or cost list)." })),
  description: Type.Optional(Text(500)),
  amount: Type.Optional(Amount),
  due_date: Type.Optional(DateOnly),
  paid_at: Type.Optional(nullable(DateTime)),
  payment_method: Type.Optional(nullable(Type.Enum([...PAYMENT_METHODS]))),
  deal_id: LinkId,
  client_id: LinkId,
  vehicle_id: LinkId,
  notes: OptionalText(10_000),
};

export const FinancialCreateBody = Type.Object(
  {
    ...financialEditable,
    category: Type.Enum([...ALL_FINANCIAL_CATEGORIES]),
    description: Text(500),
    amount: Amount,
    due_date: DateOnly,
    status: Type.Optional(Type.Enum(['pending', 'paid'])),
  },
  {
    examples: [{ type: 'revenue', category: 'venda-veiculo', description: 'Venda Corolla XEi 2024', amount: 149990, due_date: '2026-12-15' }],
  },
);

export const FinancialUpdateBody = Type.Object(
  { ...financialEditable, status: Type.Optional(Type.Enum([...FINANCIAL_STATUSES])) },
  { examples: [{ status: 'paid', payment_method: 'pix' }] },
);

export const FinancialListQuery = Type.Object({
  ...ListQuery,
  sort: Type.Optional(Type.String({ maxLength: 50, ...sortDoc(FINANCIAL_SORT_FIELDS, '-created_at (due_date on /overdue)') })),
  type: Type.Optional(Type.Enum([...FINANCIAL_TYPES])),
  category: Type.Optional(Type.Enum([...ALL_FINANCIAL_CATEGORIES])),
  status: Type.Optional(Type.Enum([...FINANCIAL_STATUSES])),
  payment_method: Type.Optional(Type.Enum([...PAYMENT_METHODS])),
  deal_id: Type.Optional(Type.String({ maxLength: 64 })),
  client_id: Type.Optional(Type.String({ maxLength: 64 })),
  vehicle_id: Type.Optional(Type.String({ maxLength: 64 })),
  due_from: Type.Optional(DateOnly),
  due_to: Type.Optional(DateOnly),
});

export const SummaryQuery = Type.Object({
  from: Type.Optional(
    Type.String({
      format: 'date',
      description: 'First due date of the period (inclusive). Default: the first day of the current month in the team time zone.',
    }),
  ),
  to: Type.Optional(Type.String({ format: 'date', description: 'Last due date of the period (inclusive). Default: the last day of the month of `from`.' })),
});

const Money = Type.Number({ examples: [1234.56] });
export const FinancialRecord = Type.Object(
  {
    id: Id,
    type: Type.Enum([...FINANCIAL_TYPES]),
    category: Type.Enum([...ALL_FINANCIAL_CATEGORIES]),
    description: Type.String(),
    amount: Money,
    currency: Type.Literal('BRL'),
    due_date: Type.String({ format: 'date' }),
    status: Type.Enum([...FINANCIAL_STATUSES]),
    paid_at: nullable(Timestamp),
    payment_method: nullable(Type.Enum([...PAYMENT_METHODS])),
    deal_id: nullable(Id),
    client_id: nullable(Id),
    vehicle_id: nullable(Id),
    notes: nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { ...closed, title: 'FinancialRecord' },
);

const MoneyCount = Type.Object({ count: Type.Integer(), amount: Money }, closed);
const Totals = { revenue: Money, expense: Money, cost: Money, net: Money };
export const FinancialSummary = Type.Object(
  {
    period: Type.Object({ from: Type.String({ format: 'date' }), to: Type.String({ format: 'date' }) }, closed),
    totals: Type.Object(Totals, { ...closed, description: 'Records not cancelled; net = revenue − expense − cost.' }),
    by_status: Type.Object(
      { pending: MoneyCount, overdue: MoneyCount, paid: MoneyCount, cancelled: MoneyCount },
      { ...closed, description: '`pending` excludes the overdue ones, counted apart in `overdue`.' },
    ),
    by_direction: Type.Object(
      {
        in: Type.Object({ paid: MoneyCount, pending: MoneyCount, overdue: MoneyCount }, closed),
        out: Type.Object({ paid: MoneyCount, pending: MoneyCount, overdue: MoneyCount }, closed),
      },
      {
        ...closed,
        description: 'Money in (revenues) and money out (expenses and costs) apart, by status; cancelled records are out. `pending` excludes the overdue ones.',
      },
    ),
    by_category: Type.Array(
      Type.Object({ type: Type.Enum([...FINANCIAL_TYPES]), category: Type.Enum([...ALL_FINANCIAL_CATEGORIES]), count: Type.Integer(), amount: Money }, closed),
    ),
    by_month: Type.Array(Type.Object({ month: Type.String({ pattern: '^\\d{4}-\\d{2}$' }), ...Totals }, closed)),
    by_vehicle: Type.Array(
      Type.Object(
        { vehicle_id: Id, sale_revenue: Money, purchase_price: nullable(Money), costs: Money, margin: nullable(Money) },
        {
          ...closed,
          description: 'margin = sale revenue (venda-veiculo) − purchase price − costs linked to the vehicle; null when the purchase price is unknown.',
        },
      ),
    ),
  },
  { ...closed, title: 'FinancialSummary' },
);

// ---------------------------------------------------------------------------------------------
// Webhooks

const EventList = Type.Array(Type.Enum([...EVENT_TYPES]), { maxItems: EVENT_TYPES.length, description: 'Event types; empty or absent: every type.' });
const HttpsUrl = Type.String({ minLength: 1, maxLength: 2048, examples: ['https://example.com/webhooks/autosales'] });

export const WebhookCreateBody = Type.Object(
  { url: HttpsUrl, events: Type.Optional(EventList), description: OptionalText(500) },
  { examples: [{ url: 'https://example.com/webhooks/autosales', events: ['activity.overdue', 'financial.overdue'] }] },
);

export const WebhookUpdateBody = Type.Object(
  {
    url: Type.Optional(HttpsUrl),
    events: Type.Optional(EventList),
    description: OptionalText(500),
    status: Type.Optional(Type.Enum([...WEBHOOK_STATUSES])),
  },
  { examples: [{ status: 'disabled' }] },
);

const webhookFields = {
  id: Id,
  team_id: Id,
  url: Type.String(),
  events: Type.Array(Type.String()),
  status: Type.Enum([...WEBHOOK_STATUSES]),
  disabled_reason: nullable(Type.String()),
  disabled_at: nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
  description: nullable(Type.String()),
};
export const Webhook = Type.Object(webhookFields, { ...closed, title: 'Webhook' });
export const WebhookCreated = Type.Object(
  { ...webhookFields, secret: Type.String({ description: 'The signing secret: shown on this answer only. Store it now.' }) },
  { ...closed, title: 'WebhookCreated' },
);
export const Deleted = Type.Object({ id: Id, deleted: Type.Literal(true) }, { ...closed, title: 'Deleted' });
