import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

interface OpenApiDoc {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: object }> }> }>>;
}

/**
 * Checks answers against the OpenAPI document the service itself serves, so the document cannot
 * drift from behaviour: an undocumented status or field on a documented route is a failure.
 */
export function createResponseValidator(doc: OpenApiDoc) {
  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
  const compiled = new Map<string, ValidateFunction | null>();

  return {
    /** null when the answer matches the document (or the route is not documented); else what is wrong. */
    check(method: string, routeUrl: string, status: number, body: unknown): string | null {
      if (method === 'HEAD' || !routeUrl) return null;
      const path = routeUrl.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths[path]?.[method.toLowerCase()];
      if (!operation) return null; // hidden routes: 405 guards, /openapi.json, /docs, /metrics
      const key = `${method} ${path} ${status}`;
      if (!compiled.has(key)) {
        const response = operation.responses?.[String(status)];
        const schema = response?.content?.['application/json']?.schema;
        compiled.set(key, response ? ajv.compile(schema ?? {}) : null);
      }
      const validate = compiled.get(key);
      if (validate === null) return `${key}: status not documented`;
      if (validate!(body)) return null;
      return `${key}: ${ajv.errorsText(validate!.errors, { separator: '; ' })}`;
    },
  };
}
