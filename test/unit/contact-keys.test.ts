import { describe, expect, it } from 'vitest';
import { emailKey, phoneKey } from '../../src/storage/contact-keys.js';

describe('lead contact keys', () => {
  it('a phone is its area code and number: digits only, without the country code 55 or a leading trunk 0', () => {
    for (const raw of ['+55 (11) 98765-4321', '55 11 98765 4321', '011 98765-4321', '(11) 98765-4321', '11987654321', '0 55 11 98765-4321']) {
      expect(phoneKey(raw), raw).toBe('11987654321');
    }
    expect(phoneKey('(19) 3232-4545')).toBe('1932324545');
    expect(phoneKey('+55 19 3232-4545')).toBe('1932324545');
    // Area code 55 (Santa Maria, RS) stays: the number is already 10 or 11 digits.
    expect(phoneKey('(55) 99999-8888')).toBe('55999998888');
  });

  it('anything that is not 10 or 11 digits once stripped has no key', () => {
    for (const raw of ['', '   ', '9876-5432', '123', '+1 415 555 2671 99', null, undefined]) expect(phoneKey(raw), String(raw)).toBeNull();
  });

  it('an e-mail is compared trimmed and lower-cased', () => {
    expect(emailKey('  Ana.Souza@Example.COM.br ')).toBe('ana.souza@example.com.br');
    expect(emailKey('')).toBeNull();
    expect(emailKey(null)).toBeNull();
  });
});
