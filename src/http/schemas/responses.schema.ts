import { Type, type TSchema } from 'typebox';
import { ErrorEnvelope, Pagination, nullable } from './common.schema.js';
import { ADDRESS_MEMBERS, CLIENT_STATUSES, CLIENT_TYPES, GENDERS, SEGMENTS } from '../../domain/clients/clients.types.js';
import { DEAL_STATUSES, PRIORITIES } from '../../domain/deals/deals.types.js';
import { BODY_TYPES, CONDITIONS, FUELS, TRANSMISSIONS, VEHICLE_PUT_SUMMARY, VEHICLE_STATUSES } from '../../domain/vehicles/vehicles.types.js';

/**
 * Response shapes, used for the OpenAPI document and, in the test suite, to validate every response
 * the service gives (so the document cannot drift from behaviour). Shapes are closed
 * (additionalProperties: false): an undocumented field is a failure.
 */
const closed = { additionalProperties: false } as const;

export const Timestamp = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$', examples: ['2026-11-22T14:03:27Z'] });
const Id = Type.String({ format: 'uuid', examples: ['0193a1f2-5b7c-7d3e-9f10-2a3b4c5d6e7f'] });
const DateOnly = Type.String({ format: 'date', examples: ['2026-12-15'] });
const Text = Type.String();
const NullableText = nullable(Type.String());

const dealFields = {
  id: Id,
  title: Text,
  description: NullableText,
  value: nullable(Type.Number({ examples: [149990] })),
  currency: Type.Literal('BRL'),
  phase: Type.String({ examples: ['lead'] }),
  priority: Type.Enum([...PRIORITIES]),
  probability: Type.Number({ minimum: 0, maximum: 100 }),
  status: Type.Enum([...DEAL_STATUSES]),
  expected_close_date: nullable(DateOnly),
  source: NullableText,
  loss_reason: NullableText,
  tags: Type.Array(Type.String()),
  is_starred: Type.Boolean(),
  store_id: NullableText,
  client_id: nullable(Id),
  client: nullable(Type.Object({ id: Id, name: Text }, closed)),
  responsible_id: NullableText,
  case_id: NullableText,
  ai_summary: nullable(
    Type.String({
      maxLength: 280,
      description: 'Resumo do negócio em português, gerado no próprio servidor por modelos de texto fixos; null em negócios arquivados.',
    }),
  ),
  ai_win_probability: nullable(
    Type.Integer({
      minimum: 0,
      maximum: 100,
      description:
        'Probabilidade de ganho (0..100) do modelo do próprio time; null em negócios fechados e em times com menos de 40 negócios fechados. Escrever este campo é ignorado.',
    }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const Deal = Type.Object(dealFields, { ...closed, title: 'Deal' });

const { id: _dealId, updated_at: _dealUpdated, title, value, phase, priority, probability, status, ...otherDealFields } = dealFields;
export const DealUpdated = Type.Object(
  {
    id: Id,
    title,
    value,
    phase,
    priority,
    probability,
    status,
    ...Object.fromEntries(Object.entries(otherDealFields).map(([k, v]) => [k, Type.Optional(v)])),
    updated_at: Timestamp,
  },
  { ...closed, title: 'DealUpdated', description: 'id, the summary fields, every field the body sent, and updated_at' },
);

export const DealArchived = Type.Object({ id: Id, status: Type.Literal('arquivado'), archived_at: Timestamp }, { ...closed, title: 'DealArchived' });

export const Address = Type.Object(
  Object.fromEntries(ADDRESS_MEMBERS.map((m) => [m, NullableText])) as Record<(typeof ADDRESS_MEMBERS)[number], typeof NullableText>,
  { ...closed, title: 'Address' },
);

const contact = {
  id: Id,
  name: Text,
  display_name: NullableText,
  email: NullableText,
  phone: NullableText,
  mobile_phone: NullableText,
  whatsapp: NullableText,
};
const classification = {
  segment: nullable(Type.Enum([...SEGMENTS])),
  status: Type.Enum([...CLIENT_STATUSES]),
  store_id: NullableText,
};
const details = {
  source: NullableText,
  address: nullable(Address),
  notes: NullableText,
  tags: Type.Array(Type.String()),
  credit_limit: nullable(Type.Number()),
};
const pfOnly = {
  cpf: NullableText,
  rg: NullableText,
  birth_date: nullable(DateOnly),
  gender: nullable(Type.Enum([...GENDERS])),
  marital_status: NullableText,
  nationality: NullableText,
};
const pjOnly = { cnpj: NullableText, legal_name: NullableText, trade_name: NullableText, state_registration: NullableText };

export const ClientPF = Type.Object(
  { ...contact, type: Type.Literal('PF'), ...pfOnly, ...classification, ...details, created_at: Timestamp, updated_at: Timestamp },
  { ...closed, title: 'ClientPF' },
);
export const ClientPJ = Type.Object(
  { ...contact, type: Type.Literal('PJ'), ...pjOnly, ...classification, ...details, created_at: Timestamp, updated_at: Timestamp },
  { ...closed, title: 'ClientPJ' },
);
export const Client = Type.Union([ClientPF, ClientPJ], { title: 'Client' });

export const ClientListItem = Type.Union(
  [
    Type.Object(
      { ...contact, type: Type.Literal('PF'), cpf: NullableText, ...classification, created_at: Timestamp },
      { ...closed, title: 'ClientListItemPF' },
    ),
    Type.Object(
      {
        ...contact,
        type: Type.Literal('PJ'),
        cnpj: NullableText,
        legal_name: NullableText,
        trade_name: NullableText,
        ...classification,
        created_at: Timestamp,
      },
      { ...closed, title: 'ClientListItemPJ' },
    ),
  ],
  { title: 'ClientListItem' },
);

export const ClientUpdated = Type.Object(
  {
    id: Id,
    ...Object.fromEntries(
      Object.entries({ type: Type.Enum([...CLIENT_TYPES]), ...contact, ...pfOnly, ...pjOnly, ...classification, ...details })
        .filter(([k]) => k !== 'id')
        .map(([k, v]) => [k, Type.Optional(v)]),
    ),
    updated_at: Timestamp,
  },
  { ...closed, title: 'ClientUpdated', description: 'id, every field the body sent (status when the client was reactivated), and updated_at' },
);

export const ClientDeactivated = Type.Object(
  { id: Id, status: Type.Literal('inactive'), deactivated_at: Timestamp },
  { ...closed, title: 'ClientDeactivated' },
);

const vehicleFields = {
  id: Id,
  title: Type.String({ examples: ['Chevrolet Onix LT 1.0 Turbo 2022'] }),
  brand: Type.String({ examples: ['Chevrolet'] }),
  model: Type.String({ examples: ['Onix'] }),
  version: NullableText,
  plate: nullable(Type.String({ examples: ['BRA2E19'] })),
  renavam: nullable(Type.String({ examples: ['86769597308'] })),
  chassis: nullable(Type.String({ examples: ['9BGKS48U0NG123456'] })),
  manufacture_year: nullable(Type.Integer({ examples: [2021] })),
  model_year: nullable(Type.Integer({ examples: [2022] })),
  mileage: nullable(Type.Integer({ minimum: 0, examples: [38500] })),
  color: NullableText,
  fuel: nullable(Type.Enum([...FUELS])),
  transmission: nullable(Type.Enum([...TRANSMISSIONS])),
  body_type: nullable(Type.Enum([...BODY_TYPES])),
  doors: nullable(Type.Integer({ minimum: 2, maximum: 5 })),
  condition: Type.Enum([...CONDITIONS]),
  fipe_code: nullable(Type.String({ examples: ['004462-5'] })),
  price: nullable(Type.Number({ examples: [82900] })),
  purchase_price: nullable(Type.Number({ examples: [71000] })),
  phase: Type.String({ examples: ['entrada'] }),
  status: Type.Enum([...VEHICLE_STATUSES]),
  sold_at: nullable(Timestamp),
  description: NullableText,
  features: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  store_id: NullableText,
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const Vehicle = Type.Object(vehicleFields, { ...closed, title: 'Vehicle' });

/** `data.object` of vehicle events: exactly the contract's eight fields. */
export const VehicleEventObject = Type.Object(
  {
    id: vehicleFields.id,
    title: vehicleFields.title,
    brand: vehicleFields.brand,
    model: vehicleFields.model,
    price: vehicleFields.price,
    phase: vehicleFields.phase,
    status: vehicleFields.status,
    created_at: vehicleFields.created_at,
  },
  { ...closed, title: 'VehicleEventObject' },
);

const vehicleSummary = new Set<string>(['id', ...VEHICLE_PUT_SUMMARY, 'updated_at']);
export const VehicleUpdated = Type.Object(
  Object.fromEntries(Object.entries(vehicleFields).map(([k, v]) => [k, vehicleSummary.has(k) ? v : Type.Optional(v)])) as typeof vehicleFields,
  { ...closed, title: 'VehicleUpdated', description: 'id, title, brand, model, price, phase, status, every other field the body changed, and updated_at' },
);

export const VehicleArchived = Type.Object({ id: Id, status: Type.Literal('arquivado'), archived_at: Timestamp }, { ...closed, title: 'VehicleArchived' });

export const Success = <T extends TSchema>(data: T) => Type.Object({ success: Type.Literal(true), data }, closed);
export const Page = <T extends TSchema>(item: T) => Type.Object({ success: Type.Literal(true), data: Type.Array(item), pagination: Pagination }, closed);

export { ErrorEnvelope };
