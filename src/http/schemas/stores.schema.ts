import { Type, type Static } from 'typebox';
import { STORE_STATUSES } from '../../domain/stores/stores.types.js';
import { ListQuery } from './common.schema.js';
import { Address, Timestamp } from './responses.schema.js';

const closed = { additionalProperties: false } as const;
const NullableText = Type.Union([Type.String(), Type.Null()]);

export const Store = Type.Object(
  {
    id: Type.String({ format: 'uuid', examples: ['0193a1f2-5b7c-7d3e-9f10-2a3b4c5d6e7f'] }),
    name: Type.String({ examples: ['Loja Centro'] }),
    cnpj: Type.Union([Type.String({ examples: ['11.222.333/0001-81'] }), Type.Null()]),
    phone: NullableText,
    whatsapp: NullableText,
    email: NullableText,
    address: Type.Union([Address, Type.Null()]),
    status: Type.Enum([...STORE_STATUSES], { description: '`inactive`: keeps its records, takes no new ones.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    ...closed,
    title: 'Store',
    examples: [
      {
        id: '0193a1f2-5b7c-7d3e-9f10-2a3b4c5d6e7f',
        name: 'Loja Centro',
        cnpj: '11.222.333/0001-81',
        phone: '(11) 3456-7890',
        whatsapp: '(11) 99876-5432',
        email: 'centro@example.com.br',
        address: {
          street: 'Av. Brasil',
          number: '100',
          complement: null,
          neighborhood: 'Centro',
          city: 'Campinas',
          state: 'SP',
          zip_code: '13010-000',
          country: 'BR',
        },
        status: 'active',
        created_at: '2026-11-22T14:03:27Z',
        updated_at: '2026-11-22T14:03:27Z',
      },
    ],
  },
);

const { store_id: _storeId, ...listParams } = ListQuery;

export const StoreListQuery = Type.Object({
  ...listParams,
  status: Type.Optional(Type.Enum([...STORE_STATUSES], { description: 'Only the stores of this status (default: every store).' })),
});
export type StoreListInput = Static<typeof StoreListQuery>;
