import { describe, expect, it } from 'vitest';
import { clientFieldProblems } from '../../src/domain/clients/client-field-rules.js';
import { vehicleFieldProblems } from '../../src/domain/vehicles/vehicle-field-rules.js';

describe('field rules that need no database', () => {
  it('client: CPF and CNPJ check digits; anything not a string is left to the schema', () => {
    expect(clientFieldProblems({ cpf: '528.417.396-10', cnpj: 'x' })).toEqual([
      { field: 'cpf', message: 'CPF inválido' },
      { field: 'cnpj', message: 'CNPJ inválido' },
    ]);
    expect(clientFieldProblems({ cpf: '528.417.396-19', cnpj: 5 })).toEqual([]);
    expect(clientFieldProblems(null)).toEqual([]);
  });
  it('vehicle: plate, RENAVAM and chassis formats', () => {
    expect(vehicleFieldProblems({ plate: 'XX', renavam: '1', chassis: 'abc' }).map((p) => p.field)).toEqual(['plate', 'renavam', 'chassis']);
    expect(vehicleFieldProblems({ plate: 'BRA2E19' })).toEqual([]);
  });
});
