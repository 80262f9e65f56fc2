import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(options: Options): Ajv {
  return addFormats(new Ajv({ strict: false, allErrors: false, useDefaults: false, removeAdditional: false, ...options }));
}

/**
 * Bodies are validated exactly as sent (a string is never a number: wrong JSON types are 400);
 * query strings and path parameters are text on the wire and are coerced to the schema's types.
 */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const exact = makeAjv({ coerceTypes: false });
  const coercing = makeAjv({ coerceTypes: true });
  return ({ schema, httpPart }) => (httpPart === 'body' ? exact : coercing).compile(schema as object);
}
