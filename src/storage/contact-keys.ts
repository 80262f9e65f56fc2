// The keys a lead's contact is matched by (DECISIONS.md, Leads): an e-mail ignoring case, a phone by its digits.
// In storage because migration 0016 backfills them with the same rule the client writes use.

/** The e-mail as compared: trimmed and lower-cased; null when empty. */
export function emailKey(raw: string | null | undefined): string | null {
  const key = raw?.trim().toLowerCase();
  return key ? key : null;
}

/**
 * A phone as compared: digits only, without the country code `55` or a leading trunk `0`, i.e. area
 * code and number (10 or 11 digits). `+55 (11) 98765-4321`, `011 98765-4321` and `11987654321` are
 * one key; anything that is not 10 or 11 digits once stripped has none (null), so it never matches.
 */
export function phoneKey(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let digits = raw.replace(/\D/g, '');
  if (digits.startsWith('0')) digits = digits.replace(/^0+/, '');
  if ((digits.length === 12 || digits.length === 13) && digits.startsWith('55')) digits = digits.slice(2);
  return digits.length === 10 || digits.length === 11 ? digits : null;
}

/** The key columns of a client's contact fields (written with them by every client write). */
export function contactKeyColumns(c: { email: string | null; phone: string | null; mobile_phone: string | null; whatsapp: string | null }) {
  return {
    email_key: emailKey(c.email),
    phone_key: phoneKey(c.phone),
    mobile_phone_key: phoneKey(c.mobile_phone),
    whatsapp_key: phoneKey(c.whatsapp),
  };
}
