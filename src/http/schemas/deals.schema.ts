import { Type, type Static } from 'typebox';
import { DEAL_STATUSES, PRIORITIES } from '../../domain/deals/deals.types.js';
import { DateOnly, ListQuery, Money, OptionalText, Tags, Text, nullable } from './common.schema.js';

const Priority = Type.Enum([...PRIORITIES]);
const Status = Type.Enum([...DEAL_STATUSES]);
const Probability = Type.Number({ minimum: 0, maximum: 100 });
const Phase = Type.String({ minLength: 1, maxLength: 50 });

const editable = {
  title: Type.Optional(Text(200)),
  description: OptionalText(10_000),
  value: Type.Optional(nullable(Money)),
  phase: Type.Optional(Phase),
  priority: Type.Optional(Priority),
  probability: Type.Optional(Probability),
  expected_close_date: Type.Optional(nullable(DateOnly)),
  client_id: Type.Optional(nullable(Type.String({ maxLength: 64 }))),
  responsible_id: OptionalText(255),
  source: OptionalText(100),
  store_id: OptionalText(255),
  case_id: OptionalText(255),
  tags: Type.Optional(Tags),
};

// Request examples: what /docs "Try it out" sends. Valid on any team with the default phases, and
// valid again when sent twice (test/integration/openapi.test.ts sends each one).
export const DealCreateBody = Type.Object(
  { ...editable, title: Text(200) },
  {
    examples: [
      {
        title: 'Toyota Corolla XEi 2024 - Ana Souza',
        description: 'Quer fazer test drive no sábado; tem um Onix 2019 para dar de entrada.',
        value: 149990,
        phase: 'proposta',
        priority: 'alta',
        expected_close_date: '2026-12-15',
        source: 'site',
        tags: ['sedan', 'financiamento'],
      },
    ],
  },
);
export type DealCreateInput = Static<typeof DealCreateBody>;

export const DealUpdateBody = Type.Object(
  {
    ...editable,
    status: Type.Optional(Status),
    loss_reason: OptionalText(1_000),
    is_starred: Type.Optional(Type.Boolean()),
  },
  { examples: [{ phase: 'negociacao', value: 147500, probability: 80, is_starred: true }] },
);
export type DealUpdateInput = Static<typeof DealUpdateBody>;

export const DealListQuery = Type.Object({
  ...ListQuery,
  status: Type.Optional(Status),
  phase: Type.Optional(Type.String({ maxLength: 50 })),
  client_id: Type.Optional(Type.String({ maxLength: 64 })),
  responsible_id: Type.Optional(Type.String({ maxLength: 255 })),
  source: Type.Optional(Type.String({ maxLength: 100 })),
  min_value: Type.Optional(Type.Number()),
  max_value: Type.Optional(Type.Number()),
  from: Type.Optional(DateOnly),
  to: Type.Optional(DateOnly),
});
export type DealListInput = Static<typeof DealListQuery>;
