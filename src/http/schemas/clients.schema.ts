import { Type, type Static } from 'typebox';
import { ADDRESS_MEMBERS, CLIENT_STATUSES, CLIENT_TYPES, GENDERS, SEGMENTS } from '../../domain/clients/clients.types.js';
import { DateOnly, ListQuery, Money, OptionalText, Tags, Text, nullable } from './common.schema.js';

const ClientType = Type.Enum([...CLIENT_TYPES]);
const Segment = Type.Enum([...SEGMENTS]);
const Gender = Type.Enum([...GENDERS]);

export const AddressBody = Type.Object(
  Object.fromEntries(ADDRESS_MEMBERS.map((m) => [m, OptionalText(200)])) as Record<(typeof ADDRESS_MEMBERS)[number], ReturnType<typeof OptionalText>>,
);

const editable = {
  type: Type.Optional(ClientType),
  name: Type.Optional(Text(200)),
  display_name: OptionalText(200),
  email: Type.Optional(nullable(Type.String({ format: 'email', maxLength: 254 }))),
  phone: OptionalText(30),
  mobile_phone: OptionalText(30),
  whatsapp: OptionalText(30),
  cpf: OptionalText(20),
  rg: OptionalText(30),
  birth_date: Type.Optional(nullable(DateOnly)),
  gender: Type.Optional(nullable(Gender)),
  marital_status: OptionalText(50),
  nationality: OptionalText(100),
  cnpj: OptionalText(25),
  legal_name: OptionalText(200),
  trade_name: OptionalText(200),
  state_registration: OptionalText(30),
  municipal_registration: OptionalText(30),
  segment: Type.Optional(nullable(Segment)),
  source: OptionalText(100),
  store_id: OptionalText(255),
  address: Type.Optional(nullable(AddressBody)),
  notes: OptionalText(10_000),
  tags: Type.Optional(Tags),
  credit_limit: Type.Optional(nullable(Money)),
};

// Request examples: what /docs "Try it out" sends (one per type). No CPF/CNPJ, which are unique in
// the team: each example stays valid when sent again (test/integration/openapi.test.ts sends each one).
export const ClientCreateBody = Type.Object(
  { ...editable, type: ClientType, name: Text(200) },
  {
    'x-examples': {
      pf: {
        summary: 'Pessoa física (PF)',
        value: {
          type: 'PF',
          name: 'Ana Beatriz Souza',
          display_name: 'Ana',
          email: 'ana.souza@example.com.br',
          mobile_phone: '(19) 99876-5432',
          birth_date: '1990-04-12',
          gender: 'feminino',
          segment: 'vip',
          source: 'site',
          address: { street: 'Av. Brasil', number: '100', neighborhood: 'Centro', city: 'Campinas', state: 'SP', zip_code: '13010-000', country: 'BR' },
          tags: ['primeira-compra'],
          credit_limit: 50000,
        },
      },
      pj: {
        summary: 'Pessoa jurídica (PJ)',
        value: {
          type: 'PJ',
          name: 'Locadora Boa Viagem',
          legal_name: 'Boa Viagem Locações Ltda',
          trade_name: 'Boa Viagem',
          email: 'compras@boaviagem.example.com.br',
          phone: '(11) 3456-7890',
          state_registration: '110.042.490.114',
          segment: 'premium',
          credit_limit: 250000,
        },
      },
    },
  },
);
export type ClientCreateInput = Static<typeof ClientCreateBody>;

export const ClientUpdateBody = Type.Object(editable, {
  examples: [{ mobile_phone: '(19) 98765-4321', segment: 'premium', address: { street: 'Rua das Palmeiras', number: '250' } }],
});
export type ClientUpdateInput = Static<typeof ClientUpdateBody>;

export const ClientListQuery = Type.Object({
  ...ListQuery,
  type: Type.Optional(ClientType),
  status: Type.Optional(Type.Enum([...CLIENT_STATUSES])),
  segment: Type.Optional(Segment),
});
export type ClientListInput = Static<typeof ClientListQuery>;
