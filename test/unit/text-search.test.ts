import { describe, expect, it } from 'vitest';
import { containsPattern, foldText, searchDocument } from '../../src/domain/shared/text-search.js';

describe('foldText', () => {
  it('lower-cases and strips accents', () => {
    expect(foldText('João')).toBe('joao');
    expect(foldText('JOÃO')).toBe('joao');
    expect(foldText('Maria Conceição Araújo')).toBe('maria conceicao araujo');
    expect(foldText('ÁÉÍÓÚ àèìòù ÂÊÔ ÃÕ Ç Ü')).toBe('aeiou aeiou aeo ao c u');
  });

  it('treats precomposed and decomposed accents alike', () => {
    expect(foldText('Jo\u00e3o')).toBe(foldText('Joa\u0303o'));
  });

  it('leaves digits, punctuation and plain text alone', () => {
    expect(foldText('529.982.247-25')).toBe('529.982.247-25');
    expect(foldText('civic 2023')).toBe('civic 2023');
    expect(foldText('')).toBe('');
  });
});

describe('searchDocument', () => {
  it('folds the parts and joins them with a separator no query contains', () => {
    expect(searchDocument(['Honda Civic', 'Cliente João'])).toBe('honda civic\u0001cliente joao');
  });

  it('skips null, undefined and empty parts', () => {
    expect(searchDocument([null, 'João', undefined, '', 'SILVA'])).toBe('joao\u0001silva');
    expect(searchDocument([])).toBe('');
    expect(searchDocument([null, undefined])).toBe('');
  });

  it('does not let a query span two parts', () => {
    const doc = searchDocument(['abc', 'def']);
    expect(doc.includes('abcdef')).toBe(false);
    expect(doc.includes('abc def')).toBe(false);
  });
});

describe('containsPattern', () => {
  it('wraps the folded query in % wildcards', () => {
    expect(containsPattern('João')).toBe('%joao%');
    expect(containsPattern('CIVIC')).toBe('%civic%');
  });

  it('escapes %, _ and \\ so they match literally', () => {
    expect(containsPattern('50%')).toBe('%50\\%%');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('c:\\x')).toBe('%c:\\\\x%');
    expect(containsPattern('%_\\')).toBe('%\\%\\_\\\\%');
  });

  it('an empty query matches everything', () => {
    expect(containsPattern('')).toBe('%%');
  });
});
