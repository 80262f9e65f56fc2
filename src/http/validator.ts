import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(options: Options): Ajv {
  return addFormats(new Ajv({ strict: false, allErrors: false, useDefaults: false, removeAdditional: false, ...options }));
}

/** A validator and its `errors` as Fastify reads them. */
type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * Bodies are validated exactly as sent (a string is never a number: wrong JSON types are 400);
 * query strings and path parameters are text on the wire and are coerced to the schema's types.
 * A valid request is checked once, stopping at the first problem; a refused one is checked again
 * with every problem collected (`error.errors`), after the first run's errors, so the first
 * problem reported is the same as before.
 */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const exact = makeAjv({ coerceTypes: false });
  const coercing = makeAjv({ coerceTypes: true });
  const exactAll = makeAjv({ coerceTypes: false, allErrors: true });
  const coercingAll = makeAjv({ coerceTypes: true, allErrors: true });
  return ({ schema, httpPart }) => {
    const body = httpPart === 'body';
    const first = (body ? exact : coercing).compile(schema as object);
    let all: ValidateFunction | undefined;
    const validate: Validate = (data) => {
      if (first(data)) {
        validate.errors = null;
        return true;
      }
      all ??= (body ? exactAll : coercingAll).compile(schema as object);
      all(data);
      validate.errors = [...(first.errors ?? []), ...(all.errors ?? [])];
      return false;
    };
    return validate;
  };
}
