import { describe, it, expect } from 'vitest';
import { isValidCnpj, isValidCpf, normalizeTaxId } from '../../src/domain/shared/tax-id.js';

describe('normalizeTaxId', () => {
  it('strips dots, slashes, dashes and whitespace', () => {
    expect(normalizeTaxId('529.982.247-25')).toBe('52998224725');
    expect(normalizeTaxId('11.222.333/0001-81')).toBe('11222333000181');
    expect(normalizeTaxId(' 529 982\t247-25\n')).toBe('52998224725');
  });

  it('upper-cases letters', () => {
    expect(normalizeTaxId('12.abc.345/01de-35')).toBe('12ABC34501DE35');
  });

  it('does not validate or remove other characters', () => {
    expect(normalizeTaxId('12*34')).toBe('12*34');
    expect(normalizeTaxId('')).toBe('');
  });
});

describe('isValidCpf', () => {
  it.each(['52998224725', '529.982.247-25', '111.444.777-35', '12345678909', '000.000.001-91', '935.411.347-80'])('accepts valid CPF %s', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
  });

  it('rejects a wrong check digit', () => {
    expect(isValidCpf('529.982.247-24')).toBe(false);
    expect(isValidCpf('529.982.247-15')).toBe(false);
    expect(isValidCpf('11144477736')).toBe(false);
  });

  it('rejects the wrong length', () => {
    expect(isValidCpf('')).toBe(false);
    expect(isValidCpf('5299822472')).toBe(false);
    expect(isValidCpf('529982247250')).toBe(false);
  });

  it('rejects letters and other characters', () => {
    expect(isValidCpf('529.982.247-2A')).toBe(false);
    expect(isValidCpf('52998224*25')).toBe(false);
  });

  it('rejects all-equal digit sequences', () => {
    for (let d = 0; d <= 9; d++) expect(isValidCpf(String(d).repeat(11))).toBe(false);
  });
});

describe('isValidCnpj', () => {
  it.each(['11.222.333/0001-81', '11222333000181', '11.444.777/0001-61', '12.345.678/0001-95', '00.000.000/0001-91'])(
    'accepts valid numeric CNPJ %s',
    (cnpj) => {
      expect(isValidCnpj(cnpj)).toBe(true);
    },
  );

  it('rejects wrong numeric check digits', () => {
    expect(isValidCnpj('11.222.333/0001-82')).toBe(false);
    expect(isValidCnpj('11.222.333/0001-71')).toBe(false);
  });

  it('accepts the alphanumeric example published by the Receita Federal', () => {
    expect(isValidCnpj('12.ABC.345/01DE-35')).toBe(true);
    expect(isValidCnpj('12ABC34501DE35')).toBe(true);
  });

  it('accepts lower-case alphanumeric CNPJs', () => {
    expect(isValidCnpj('12abc34501de35')).toBe(true);
    expect(isValidCnpj('12.abc.345/01de-35')).toBe(true);
  });

  it('rejects a wrong alphanumeric check digit', () => {
    expect(isValidCnpj('12.ABC.345/01DE-36')).toBe(false);
  });

  it('rejects a letter in a check-digit position', () => {
    expect(isValidCnpj('12.ABC.345/01DE-3A')).toBe(false);
    expect(isValidCnpj('12.ABC.345/01DE-A5')).toBe(false);
  });

  it('rejects the wrong length and invalid characters', () => {
    expect(isValidCnpj('')).toBe(false);
    expect(isValidCnpj('1122233300018')).toBe(false);
    expect(isValidCnpj('112223330001810')).toBe(false);
    expect(isValidCnpj('12*BC34501DE35')).toBe(false);
  });

  it('rejects all-equal digit sequences', () => {
    for (let d = 0; d <= 9; d++) expect(isValidCnpj(String(d).repeat(14))).toBe(false);
  });
});
