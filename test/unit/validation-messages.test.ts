import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { validationMessage } from '../../src/http/validation-messages.js';

/** A hand-made ajv error, as ajv reports it. */
function err(keyword: string, instancePath: string, params: Record<string, unknown> = {}): ErrorObject {
  return { keyword, instancePath, schemaPath: `#/${keyword}`, params, message: 'ajv message' } as ErrorObject;
}

describe('validationMessage: the contract messages', () => {
  it("missing title: Campo 'title' é obrigatório", () => {
    expect(validationMessage([err('required', '', { missingProperty: 'title' })], 'body')).toBe("Campo 'title' é obrigatório");
  });

  it("missing name: Campo 'name' é obrigatório", () => {
    expect(validationMessage([err('required', '', { missingProperty: 'name' })], 'body')).toBe("Campo 'name' é obrigatório");
  });

  it('priority outside its set: Prioridade inválida', () => {
    expect(validationMessage([err('enum', '/priority', { allowedValues: ['alta', 'media', 'baixa'] })], 'body')).toBe('Prioridade inválida');
  });

  it.each(['minimum', 'maximum'])('probability %s: Probabilidade deve ser entre 0 e 100', (keyword) => {
    const limit = keyword === 'minimum' ? 0 : 100;
    expect(validationMessage([err(keyword, '/probability', { comparison: keyword === 'minimum' ? '>=' : '<=', limit })], 'body')).toBe(
      'Probabilidade deve ser entre 0 e 100',
    );
  });

  it("type missing or not PF/PJ: Campo 'type' é obrigatório. Use: PF ou PJ", () => {
    const message = "Campo 'type' é obrigatório. Use: PF ou PJ";
    expect(validationMessage([err('required', '', { missingProperty: 'type' })], 'body')).toBe(message);
    expect(validationMessage([err('enum', '/type', { allowedValues: ['PF', 'PJ'] })], 'body')).toBe(message);
  });
});

describe('validationMessage: body shape and field types', () => {
  it('a body that is not an object: O corpo da requisição deve ser um objeto JSON', () => {
    expect(validationMessage([err('type', '', { type: 'object' })], 'body')).toBe('O corpo da requisição deve ser um objeto JSON');
  });

  it.each([
    ['number', "Campo 'value' deve ser um número"],
    ['string', "Campo 'value' deve ser um texto"],
    ['integer', "Campo 'value' deve ser um número inteiro"],
    ['boolean', "Campo 'value' deve ser verdadeiro ou falso (boolean)"],
    ['array', "Campo 'value' deve ser uma lista"],
    ['object', "Campo 'value' deve ser um objeto"],
  ])('wrong type %s names the field', (type, message) => {
    expect(validationMessage([err('type', '/value', { type })], 'body')).toBe(message);
  });

  it('a nullable type does not mention null', () => {
    expect(validationMessage([err('type', '/value', { type: ['number', 'null'] })], 'body')).toBe("Campo 'value' deve ser um número");
    expect(validationMessage([err('type', '/value', { type: 'number,null' })], 'body')).toBe("Campo 'value' deve ser um número");
  });

  it('other enums have their own messages', () => {
    expect(validationMessage([err('enum', '/status', { allowedValues: ['ativo'] })], 'body')).toBe('Status inválido');
    expect(validationMessage([err('enum', '/segment', { allowedValues: ['vip'] })], 'body')).toBe('Segmento inválido');
    expect(validationMessage([err('enum', '/gender', { allowedValues: ['outro'] })], 'body')).toBe('Gênero inválido');
  });

  it('empty, too long, negative, bad date and bad e-mail name the field', () => {
    expect(validationMessage([err('minLength', '/title', { limit: 1 })], 'body')).toBe("Campo 'title' não pode ser vazio");
    expect(validationMessage([err('pattern', '/title', { pattern: '\\S' })], 'body')).toBe("Campo 'title' não pode ser vazio");
    expect(validationMessage([err('maxLength', '/title', { limit: 200 })], 'body')).toBe("Campo 'title' deve ter no máximo 200 caracteres");
    expect(validationMessage([err('minimum', '/value', { comparison: '>=', limit: 0 })], 'body')).toBe("Campo 'value' não pode ser negativo");
    expect(validationMessage([err('format', '/expected_close_date', { format: 'date' })], 'body')).toBe(
      "Campo 'expected_close_date' deve ser uma data válida no formato YYYY-MM-DD",
    );
    expect(validationMessage([err('format', '/email', { format: 'email' })], 'body')).toBe("Campo 'email' deve ser um e-mail válido");
  });

  it('nested fields are named with a dot, list items by their list', () => {
    expect(validationMessage([err('maxLength', '/address/city', { limit: 200 })], 'body')).toBe("Campo 'address.city' deve ter no máximo 200 caracteres");
    expect(validationMessage([err('minLength', '/tags/3', { limit: 1 })], 'body')).toBe(
      "Campo 'tags' deve ser uma lista de textos não vazios de até 50 caracteres",
    );
  });

  it('skips anyOf wrappers and reports the first real problem', () => {
    expect(
      validationMessage([err('anyOf', '/value'), err('type', '/value', { type: 'number' }), err('required', '', { missingProperty: 'title' })], 'body'),
    ).toBe("Campo 'value' deve ser um número");
  });

  it('no errors at all still gives a message', () => {
    expect(validationMessage([], 'body')).toBe('Requisição inválida');
  });
});

describe('validationMessage: query string', () => {
  it("page of the wrong type: Parâmetro 'page' deve ser um número inteiro positivo", () => {
    expect(validationMessage([err('type', '/page', { type: 'integer' })], 'querystring')).toBe("Parâmetro 'page' deve ser um número inteiro positivo");
  });

  it('page or limit below 1 gives the same message', () => {
    expect(validationMessage([err('minimum', '/page', { comparison: '>=', limit: 1 })], 'querystring')).toBe(
      "Parâmetro 'page' deve ser um número inteiro positivo",
    );
    expect(validationMessage([err('minimum', '/limit', { comparison: '>=', limit: 1 })], 'querystring')).toBe(
      "Parâmetro 'limit' deve ser um número inteiro positivo",
    );
  });

  it('query parameters are called Parâmetro, not Campo', () => {
    expect(validationMessage([err('type', '/min_value', { type: 'number' })], 'querystring')).toBe("Parâmetro 'min_value' deve ser um número");
    expect(validationMessage([err('format', '/from', { format: 'date' })], 'querystring')).toBe(
      "Parâmetro 'from' deve ser uma data válida no formato YYYY-MM-DD",
    );
  });

  it("a bad type filter names the parameter rather than the body field's message", () => {
    expect(validationMessage([err('enum', '/type', { allowedValues: ['PF', 'PJ'] })], 'querystring')).toBe("Parâmetro 'type' deve ser um de: PF, PJ");
    expect(validationMessage([err('enum', '/status', { allowedValues: ['ativo', 'ganho'] })], 'querystring')).toBe('Status inválido');
  });
});
