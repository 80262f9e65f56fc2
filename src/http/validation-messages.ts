import type { ErrorObject } from 'ajv';

/** Which part of the request failed: 'body', 'querystring', 'params' or 'headers'. */
type Part = string;

/** Contract messages for particular fields; everything else gets a generic message naming the field. */
const ENUM_MESSAGES: Record<string, string> = {
  priority: 'Prioridade inválida',
  status: 'Status inválido',
  type: "Campo 'type' é obrigatório. Use: PF ou PJ",
  segment: 'Segmento inválido',
  gender: 'Gênero inválido',
};

const TYPE_NAMES: Record<string, string> = {
  string: 'um texto',
  number: 'um número',
  integer: 'um número inteiro',
  boolean: 'verdadeiro ou falso (boolean)',
  array: 'uma lista',
  object: 'um objeto',
};

function typeName(type: unknown): string {
  const types = (Array.isArray(type) ? type.map((t) => `${t as string}`) : `${type as string}`.split(',')).filter((t) => t !== 'null');
  return types.map((t) => TYPE_NAMES[t] ?? t).join(' ou ');
}

/** `/address/city` -> `address.city`; `/tags/3` -> `tags` (the list is what the client got wrong). */
function fieldOf(error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .filter((s) => !/^\d+$/.test(s));
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  return segments.join('.');
}

/** The error reported: the first one that is not a bare `anyOf` summary. */
const reported = (errors: ErrorObject[]): ErrorObject | undefined => errors.find((e) => e.keyword !== 'anyOf') ?? errors[0];

/**
 * The field the reported error is about, for `error.field`: a body path (`address.city`) or a query
 * parameter name; undefined when the error is about the body as a whole or about a header.
 */
export function validationField(errors: ErrorObject[], part: Part): string | undefined {
  if (part !== 'body' && part !== 'querystring') return undefined;
  const error = reported(errors);
  const field = error ? fieldOf(error) : '';
  return field === '' ? undefined : field;
}

/** The first ajv error, as the Portuguese message the contract and DECISIONS.md ask for. */
export function validationMessage(errors: ErrorObject[], part: Part): string {
  const error = reported(errors);
  if (!error) return 'Requisição inválida';
  const field = fieldOf(error);
  const leaf = field.split('.').pop() ?? field;
  const label = part === 'body' ? 'Campo' : part === 'headers' ? 'Cabeçalho' : 'Parâmetro';
  const isItem = /\/\d+$/.test(error.instancePath);

  if (field === '' && part === 'body') return 'O corpo da requisição deve ser um objeto JSON';
  if (field === 'probability' && (error.keyword === 'minimum' || error.keyword === 'maximum')) {
    return 'Probabilidade deve ser entre 0 e 100';
  }
  if (error.keyword === 'required') {
    return field === 'type' ? ENUM_MESSAGES.type! : `${label} '${field}' é obrigatório`;
  }
  // The PF/PJ message belongs to clients' `type`; other resources' `type` (activities, financial records) gets the generic list.
  const clientType = leaf !== 'type' || ((error.params.allowedValues as unknown[] | undefined) ?? []).includes('PF');
  if (error.keyword === 'enum' && ENUM_MESSAGES[leaf] && clientType && !(leaf === 'type' && part !== 'body')) return ENUM_MESSAGES[leaf];
  if (isItem && field === 'tags') return `${label} 'tags' deve ser uma lista de textos não vazios de até 50 caracteres`;

  switch (error.keyword) {
    case 'enum':
      return `${label} '${field}' deve ser um de: ${(error.params.allowedValues as unknown[]).filter((v) => typeof v === 'string').join(', ')}`;
    case 'type':
      if (part === 'querystring' && (field === 'page' || field === 'limit')) return `${label} '${field}' deve ser um número inteiro positivo`;
      return `${label} '${field}' deve ser ${typeName(error.params.type)}`;
    case 'minLength':
    case 'pattern':
      return `${label} '${field}' não pode ser vazio`;
    case 'maxLength':
      return `${label} '${field}' deve ter no máximo ${String(error.params.limit)} caracteres`;
    case 'maxItems':
      return `${label} '${field}' deve ter no máximo ${String(error.params.limit)} itens`;
    case 'minimum':
      if (field === 'page' || field === 'limit') return `${label} '${field}' deve ser um número inteiro positivo`;
      return Number(error.params.limit) === 0
        ? `${label} '${field}' não pode ser negativo`
        : `${label} '${field}' deve ser no mínimo ${String(error.params.limit)}`;
    case 'maximum':
      return `${label} '${field}' deve ser no máximo ${String(error.params.limit)}`;
    case 'format':
      if (error.params.format === 'date') return `${label} '${field}' deve ser uma data válida no formato YYYY-MM-DD`;
      if (error.params.format === 'email') return `${label} '${field}' deve ser um e-mail válido`;
      return `${label} '${field}' tem formato inválido`;
    default:
      return `${label} '${field}' inválido`;
  }
}

/**
 * Every field the errors are about, each with its message (the first error of each field, the first
 * field being the one validationField reports), for `error.errors`.
 */
export function validationProblems(errors: ErrorObject[], part: Part): Array<{ field: string; message: string }> {
  const first = reported(errors);
  const problems: Array<{ field: string; message: string }> = [];
  for (const error of [...(first ? [first] : []), ...errors]) {
    if (error.keyword === 'anyOf') continue;
    const field = validationField([error], part);
    if (field === undefined || problems.some((p) => p.field === field)) continue;
    problems.push({ field, message: validationMessage([error], part) });
  }
  return problems;
}
