import { describe, expect, it } from 'vitest';
import { formatDoc, maskText, moneyInput, moneyText, moneyValue, plateInput } from '../../packages/panel/src/ui/masks.js';

describe("the panel's masks", () => {
  it('punctuate CPF, CNPJ, CEP and phones as they are typed, whatever the keystrokes', () => {
    expect(maskText('cpf', '5284')).toBe('528.4');
    expect(maskText('cpf', '528417396199999')).toBe('528.417.396-19');
    expect(maskText('cnpj', '11222333000181')).toBe('11.222.333/0001-81');
    expect(maskText('cep', '01304001')).toBe('01304-001');
    expect(maskText('phone', '1133334444')).toBe('(11) 3333-4444');
    expect(maskText('phone', '(11) 3333-44445')).toBe('(11) 33334-4445');
    expect(maskText('cpf', '')).toBe('');
  });
  it('show stored bare digits punctuated, and anything else as stored', () => {
    expect(formatDoc('cpf', '52998224725')).toBe('529.982.247-25');
    expect(formatDoc('phone', '21987651234')).toBe('(21) 98765-1234');
    expect(formatDoc('phone', '+55 21 98765-1234')).toBe('+55 21 98765-1234');
    expect(formatDoc('cpf', '123')).toBe('123');
  });
  it('money in reais both ways; plates in upper case', () => {
    expect(moneyText('84900')).toBe('R$ 84.900');
    expect(moneyText('R$ 84.900,505')).toBe('R$ 84.900,50');
    expect(moneyText('')).toBe('');
    expect(moneyInput(84900)).toBe('R$ 84.900,00');
    expect(moneyValue('R$ 84.900,5')).toBe(84900.5);
    expect(moneyValue('')).toBeNull();
    expect(plateInput('rio 2a19')).toBe('RIO2A19');
  });
});
