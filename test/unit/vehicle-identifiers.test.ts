import { describe, expect, it } from 'vitest';
import {
  canonicalChassis,
  canonicalPlate,
  canonicalRenavam,
  compactPlate,
  isFipeCode,
  plateSearchForms,
} from '../../src/domain/vehicles/vehicle-identifiers.js';

describe('plates', () => {
  it('accepts the old and the Mercosul forms, with or without dash or spaces, any case', () => {
    expect(compactPlate('ABC-1234')).toBe('ABC1234');
    expect(compactPlate('abc 1c34')).toBe('ABC1C34');
    expect(compactPlate(' aBc1234 ')).toBe('ABC1234');
  });

  it('refuses anything else', () => {
    for (const bad of ['', 'AB-1234', 'ABCD123', 'ABC12345', 'ABC-12C4', '1BC1234', 'ABC_1234', 'ABC.1234', 'ÁBC1234']) {
      expect(compactPlate(bad), bad).toBeNull();
      expect(canonicalPlate(bad), bad).toBeNull();
    }
  });

  it('maps an old plate to its Mercosul form: the fifth character 0..9 becomes A..J', () => {
    expect(canonicalPlate('ABC-1234')).toBe('ABC1C34');
    expect(canonicalPlate('ABC1C34')).toBe('ABC1C34');
    expect(canonicalPlate('XYZ-9051')).toBe('XYZ9A51');
    expect(canonicalPlate('XYZ-9951')).toBe('XYZ9J51');
    expect(canonicalPlate('abc-1234')).toBe(canonicalPlate('ABC1C34'));
  });

  it('a Mercosul plate with a letter past J has no old form', () => {
    expect(canonicalPlate('BRA2K19')).toBe('BRA2K19');
    expect(plateSearchForms('BRA2K19')).toEqual(['BRA2K19', 'BRA-2K19']);
  });

  it('search forms cover old and Mercosul, with and without dash', () => {
    expect(plateSearchForms('abc1234').sort()).toEqual(['ABC-1234', 'ABC-1C34', 'ABC1234', 'ABC1C34']);
  });
});

/** Valid by the rule: 00 + these nine digits. */
const NINE_DIGITS = '639884962';
/** Valid by the rule, its weighted sum giving 10, i.e. check digit 0. */
const TEN_TO_ZERO = '10000000130';

describe('RENAVAM', () => {
  it('accepts the published vectors', () => {
    expect(canonicalRenavam('86769597308')).toBe('86769597308');
    expect(canonicalRenavam('35298206229')).toBe('35298206229');
  });

  it('a check digit of 10 becomes 0', () => {
    expect(canonicalRenavam(TEN_TO_ZERO)).toBe(TEN_TO_ZERO);
  });

  it('refuses a wrong check digit', () => {
    expect(canonicalRenavam('12345678901')).toBeNull();
    expect(canonicalRenavam('86769597309')).toBeNull();
  });

  it('left-pads 9 and 10 digits to 11 before checking', () => {
    // 0867695973 + 9: (0·3 + 8·2 + 6·9 + 7·8 + 6·7 + 9·6 + 5·5 + 9·4 + 7·3 + 3·2) = 310; 3100 mod 11 = 9.
    expect(canonicalRenavam('8676959739')).toBe('08676959739');
    expect(canonicalRenavam('8676959738')).toBeNull();
    expect(canonicalRenavam(NINE_DIGITS)).toBe(`00${NINE_DIGITS}`);
  });

  it('refuses other lengths, non-digits and all-equal digits', () => {
    for (const bad of ['', '12345678', '123456789012', '8676959730A', '867.695.973-08', '00000000000', '11111111111']) {
      expect(canonicalRenavam(bad), bad).toBeNull();
    }
  });
});

describe('chassis', () => {
  it('accepts 17 characters without I, O, Q ending in four digits, any case', () => {
    expect(canonicalChassis('9BWZZZ377VT004251')).toBe('9BWZZZ377VT004251');
    expect(canonicalChassis('9bwzzz377vt004251')).toBe('9BWZZZ377VT004251');
  });

  it('refuses I, O, Q, other lengths and letters in the last four', () => {
    for (const bad of [
      '9BWZZZ377VT00425',
      '9BWZZZ377VT0042511',
      '9BWIZZ377VT004251',
      '9BWOZZ377VT004251',
      '9BWQZZ377VT004251',
      '9BWZZZ377VT00425A',
      '9BWZZZ377V-004251',
    ]) {
      expect(canonicalChassis(bad), bad).toBeNull();
    }
  });
});

describe('FIPE code', () => {
  it('is NNNNNN-N', () => {
    expect(isFipeCode('001267-0')).toBe(true);
    expect(isFipeCode('0012670')).toBe(false);
    expect(isFipeCode('001267-01')).toBe(false);
  });
});
