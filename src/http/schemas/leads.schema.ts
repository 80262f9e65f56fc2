import { Type, type Static } from 'typebox';
import { MAX_EXTERNAL_ID_LENGTH } from '../../domain/leads/leads.types.js';
import { Money, OptionalText, Tags, Text, nullable } from './common.schema.js';
import { Client, Deal } from './responses.schema.js';

// Request examples: what /docs "Try it out" sends. The portal's plate is a car the example team keeps
// in stock (test/integration/openapi.test.ts adds it); each one sent again answers 200 (the same lead).
export const LeadCreateBody = Type.Object(
  {
    name: Text(200),
    email: Type.Optional(nullable(Type.String({ format: 'email', maxLength: 254 }))),
    phone: OptionalText(30),
    mobile_phone: OptionalText(30),
    whatsapp: OptionalText(30),
    cpf: OptionalText(20),
    cnpj: OptionalText(25),
    message: OptionalText(10_000),
    source: OptionalText(100),
    vehicle_id: Type.Optional(nullable(Type.String({ maxLength: 64 }))),
    plate: OptionalText(10),
    store_id: OptionalText(255),
    value: Type.Optional(nullable(Money)),
    tags: Type.Optional(Tags),
    external_id: OptionalText(MAX_EXTERNAL_ID_LENGTH),
    trade_in: OptionalText(500),
    wants_financing: Type.Optional(nullable(Type.Boolean())),
  },
  {
    'x-examples': {
      portal: {
        summary: 'Portal lead with a plate (Webmotors)',
        value: {
          name: 'Carlos Pereira',
          email: 'carlos.pereira@example.com.br',
          mobile_phone: '(11) 98765-4321',
          message: 'Tenho interesse no Corolla. Aceita troca?',
          source: 'webmotors',
          plate: 'RIO2A18',
          external_id: 'WM-784512',
          trade_in: 'Onix LT 2019, 62.000 km',
          wants_financing: true,
        },
      },
      site: {
        summary: 'Site lead without a car',
        value: {
          name: 'Fernanda Lima',
          email: 'fernanda.lima@example.com.br',
          phone: '(19) 3232-4545',
          message: 'Gostaria de saber as condições de financiamento para um SUV.',
          source: 'site',
          tags: ['suv'],
        },
      },
      whatsapp: {
        summary: 'WhatsApp lead with only a phone',
        value: { name: 'Marcos', whatsapp: '+55 21 99888-7766', source: 'whatsapp', message: 'Oi, o HB20 ainda está disponível?' },
      },
    },
  },
);
export type LeadCreateInput = Static<typeof LeadCreateBody>;

export const LeadAnswer = Type.Object(
  {
    deal: Deal,
    client: Client,
    client_created: Type.Boolean(),
    duplicate: Type.Boolean(),
    responsible_id: nullable(Type.String()),
  },
  { additionalProperties: false, title: 'LeadResult' },
);
