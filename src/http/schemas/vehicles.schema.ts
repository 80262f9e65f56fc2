import { Type, type Static } from 'typebox';
import { BODY_TYPES, CONDITIONS, FUELS, TRANSMISSIONS, VEHICLE_STATUSES } from '../../domain/vehicles/vehicles.types.js';
import { ListQuery, Money, OptionalText, Tags, Text, nullable } from './common.schema.js';

const Status = Type.Enum([...VEHICLE_STATUSES]);
const Phase = Type.String({ minLength: 1, maxLength: 50 });
const Year = Type.Integer({ minimum: 0, maximum: 9999 });
// Plate, RENAVAM, chassis and FIPE code are checked by the service, with the contract's messages.
const Identifier = (max: number, description: string) => Type.Optional(nullable(Type.String({ maxLength: max, description })));

const editable = {
  title: Type.Optional(Text(200)),
  brand: Type.Optional(Text(100)),
  model: Type.Optional(Text(100)),
  version: OptionalText(200),
  plate: Identifier(20, 'Old (`ABC-1234`) or Mercosul (`ABC1C34`) form; dash and spaces optional, any case. Stored as sent.'),
  renavam: Identifier(20, '9 to 11 digits with a valid check digit (9 and 10 digits are left-padded to 11).'),
  chassis: Identifier(30, '17 letters or digits without I, O, Q, the last four digits.'),
  manufacture_year: Type.Optional(nullable(Year)),
  model_year: Type.Optional(nullable(Year)),
  mileage: Type.Optional(nullable(Type.Integer({ minimum: 0, maximum: 10_000_000 }))),
  color: OptionalText(50),
  fuel: Type.Optional(nullable(Type.Enum([...FUELS]))),
  transmission: Type.Optional(nullable(Type.Enum([...TRANSMISSIONS]))),
  body_type: Type.Optional(nullable(Type.Enum([...BODY_TYPES]))),
  doors: Type.Optional(nullable(Type.Integer({ minimum: 2, maximum: 5 }))),
  condition: Type.Optional(Type.Enum([...CONDITIONS])),
  fipe_code: Identifier(20, 'FIPE table code, `NNNNNN-N`.'),
  price: Type.Optional(nullable(Money)),
  purchase_price: Type.Optional(nullable(Money)),
  phase: Type.Optional(Phase),
  description: OptionalText(10_000),
  features: Type.Optional(Tags),
  tags: Type.Optional(Tags),
  store_id: OptionalText(255),
};

// Request examples: what /docs "Try it out" sends, valid on any team with the default board and
// valid again when sent twice (so no plate, RENAVAM or chassis: those are unique among cars in stock).
export const VehicleCreateBody = Type.Object(
  { ...editable, title: Text(200), brand: Text(100), model: Text(100) },
  {
    examples: [
      {
        title: 'Chevrolet Onix LT 1.0 Turbo 2022',
        brand: 'Chevrolet',
        model: 'Onix',
        version: 'LT 1.0 Turbo',
        manufacture_year: 2021,
        model_year: 2022,
        mileage: 38500,
        color: 'Prata',
        fuel: 'flex',
        transmission: 'automatico',
        body_type: 'hatch',
        doors: 4,
        condition: 'seminovo',
        fipe_code: '004462-5',
        price: 82900,
        purchase_price: 71000,
        features: ['ar-condicionado', 'central multimídia', 'câmera de ré'],
        tags: ['destaque'],
      },
    ],
  },
);
export type VehicleCreateInput = Static<typeof VehicleCreateBody>;

export const VehicleUpdateBody = Type.Object(
  {
    ...editable,
    status: Type.Optional(Status),
    sold_at: Type.Optional(
      nullable(Type.String({ format: 'date-time', description: 'When the car was sold; only with status `vendido` (default: the time of the change).' })),
    ),
  },
  { examples: [{ phase: 'disponivel', price: 79900, mileage: 39100 }] },
);
export type VehicleUpdateInput = Static<typeof VehicleUpdateBody>;

export const VehicleListQuery = Type.Object({
  ...ListQuery,
  status: Type.Optional(Status),
  phase: Type.Optional(Type.String({ maxLength: 50 })),
  brand: Type.Optional(Type.String({ maxLength: 100, description: 'Exact brand, case- and accent-insensitive.' })),
  model: Type.Optional(Type.String({ maxLength: 100, description: 'Exact model, case- and accent-insensitive.' })),
  condition: Type.Optional(Type.Enum([...CONDITIONS])),
  fuel: Type.Optional(Type.Enum([...FUELS])),
  transmission: Type.Optional(Type.Enum([...TRANSMISSIONS])),
  min_price: Type.Optional(Type.Number()),
  max_price: Type.Optional(Type.Number()),
  min_year: Type.Optional(Type.Integer({ description: 'Lowest model year, inclusive.' })),
  max_year: Type.Optional(Type.Integer({ description: 'Highest model year, inclusive.' })),
  max_mileage: Type.Optional(Type.Integer({ description: 'Highest mileage (km), inclusive.' })),
});
export type VehicleListInput = Static<typeof VehicleListQuery>;
