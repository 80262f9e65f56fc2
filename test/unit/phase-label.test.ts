import { describe, expect, it } from 'vitest';
import { phaseLabel } from '../../packages/panel/src/ui/format.js';

// The panel shows phases as a store reads them; the stored name (what the API takes) never changes.
describe('phaseLabel', () => {
  it('gives the default phases of both boards their capitals and accents', () => {
    expect(['lead', 'qualificado', 'proposta', 'negociacao', 'fechamento'].map(phaseLabel)).toEqual([
      'Lead',
      'Qualificado',
      'Proposta',
      'Negociação',
      'Fechamento',
    ]);
    expect(['entrada', 'preparacao', 'documentacao', 'disponivel', 'reservado'].map(phaseLabel)).toEqual([
      'Entrada',
      'Preparação',
      'Documentação',
      'Disponível',
      'Reservado',
    ]);
  });

  it('capitalizes any other name and reads _ as a space, keeping what the store typed', () => {
    expect(phaseLabel('test_drive')).toBe('Test drive');
    expect(phaseLabel('pós-venda')).toBe('Pós-venda');
    expect(phaseLabel('Vistoria')).toBe('Vistoria');
    expect(phaseLabel('égua')).toBe('Égua');
    expect(phaseLabel('___')).toBe('___');
  });
});
