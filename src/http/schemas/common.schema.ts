import { Type, type Static, type TSchema } from 'typebox';
import { MAX_MONEY } from '../../domain/shared/money.js';

/** `T | null` as one JSON-schema `type` array: validation then reports a single, clear error. */
export function nullable<T extends TSchema>(schema: T) {
  const { type, enum: values, ...rest } = schema as unknown as { type?: string; enum?: unknown[] };
  if (values) return Type.Unsafe<Static<T> | null>({ ...rest, enum: [...values, null] });
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

/** Non-blank text up to `max` characters. */
export const Text = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });
export const OptionalText = (max: number) => Type.Optional(nullable(Type.String({ maxLength: max })));
export const DateOnly = Type.String({ format: 'date' });
export const Money = Type.Number({ minimum: 0, maximum: MAX_MONEY });
export const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 50, pattern: '\\S' }), { maxItems: 50 });

export const ListQuery = {
  // Capped so the row offset stays a 64-bit integer on both databases.
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
  sort: Type.Optional(Type.String({ maxLength: 50 })),
  search: Type.Optional(Type.String({ maxLength: 200 })),
  store_id: Type.Optional(Type.String({ maxLength: 255 })),
};

export const IdParams = Type.Object({ id: Type.String({ description: 'Record id (UUID). Any other value is simply unknown: 404.' }) });

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Makes the POST safe to retry: the first answer is replayed for 24 h (same body), 422 for another body.',
    }),
  ),
});

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object(
      {
        code: Type.String({ description: 'Machine-readable code (UNAUTHORIZED, VALIDATION_ERROR, …).' }),
        message: Type.String({ description: 'What went wrong, in Portuguese.' }),
        field: Type.Optional(
          Type.String({
            description:
              'Addition to the contract: the one field the error is about, when it is about one field: a body path such as `title` or `address.city` (list items are named by their list, `tags`), or a query parameter such as `page`.',
            examples: ['phase'],
          }),
        ),
        details: Type.Optional(
          Type.Object(
            {
              allowed: Type.Optional(
                Type.Array(Type.String(), { description: "The accepted values, e.g. the team's phases in pipeline order for `Fase inválida`." }),
              ),
            },
            {
              description: 'Addition to the contract: machine-readable detail of some errors.',
              examples: [{ allowed: ['lead', 'qualificado', 'proposta', 'negociacao', 'fechamento'] }],
            },
          ),
        ),
        errors: Type.Optional(
          Type.Array(
            Type.Object(
              {
                field: Type.String({ description: 'A body path or query parameter, as in `field`.' }),
                message: Type.String({ description: 'In Portuguese.' }),
              },
              { additionalProperties: false },
            ),
            {
              minItems: 1,
              description:
                'Addition to the contract, on a 400 VALIDATION_ERROR about fields: every invalid field found at once, each with its message. The first is `field` and `message`.',
              examples: [
                [
                  { field: 'plate', message: 'Placa inválida' },
                  { field: 'renavam', message: 'RENAVAM inválido' },
                ],
              ],
            },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const Pagination = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  pages: Type.Integer(),
});
