// Brazilian vehicle identifiers: licence plate (old and Mercosul forms), RENAVAM and chassis (VIN).

const PLATE = /^[A-Z]{3}[0-9][A-Z0-9][0-9]{2}$/;
const CHASSIS = /^[A-HJ-NPR-Z0-9]{13}[0-9]{4}$/;
const RENAVAM_WEIGHTS = [3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;

/** A plate without `-` and spaces, upper-cased; null when it is neither an old (`ABC1234`) nor a Mercosul (`ABC1C34`) plate. */
export function compactPlate(raw: string): string | null {
  const plate = raw.replace(/[-\s]/g, '').toUpperCase();
  return PLATE.test(plate) ? plate : null;
}

/**
 * The canonical form: the Mercosul one. An old plate's fifth character, a digit d, becomes the d-th
 * letter (0 -> A … 9 -> J), so `ABC-1234` and `ABC1C34` are the same vehicle. Null when invalid.
 */
export function canonicalPlate(raw: string): string | null {
  const plate = compactPlate(raw);
  if (!plate) return null;
  const fifth = plate[4]!;
  return /[0-9]/.test(fifth) ? `${plate.slice(0, 4)}${String.fromCharCode(65 + Number(fifth))}${plate.slice(5)}` : plate;
}

/**
 * Every way a person may type the plate (old and Mercosul forms, with and without the dash), for the
 * search document: a search for any of them finds the vehicle.
 */
export function plateSearchForms(raw: string): string[] {
  const canonical = canonicalPlate(raw);
  if (!canonical) return [raw];
  const fifth = canonical.charCodeAt(4) - 65;
  const forms = [canonical];
  if (fifth >= 0 && fifth <= 9) forms.push(`${canonical.slice(0, 4)}${fifth}${canonical.slice(5)}`);
  return [...forms, ...forms.map((f) => `${f.slice(0, 3)}-${f.slice(3)}`)];
}

/** The 11-digit RENAVAM (9 and 10 digits are left-padded), or null when the format or the check digit is wrong. */
export function canonicalRenavam(raw: string): string | null {
  if (!/^[0-9]{9,11}$/.test(raw)) return null;
  const renavam = raw.padStart(11, '0');
  if (/^(.)\1*$/.test(renavam)) return null;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += Number(renavam[i]) * RENAVAM_WEIGHTS[i]!;
  const check = ((sum * 10) % 11) % 10;
  return check === Number(renavam[10]) ? renavam : null;
}

/** The upper-cased chassis (17 letters or digits, no I, O or Q, the last four digits), or null when invalid. */
export function canonicalChassis(raw: string): string | null {
  const chassis = raw.toUpperCase();
  return CHASSIS.test(chassis) ? chassis : null;
}

/** FIPE table code, `NNNNNN-N`. */
export const isFipeCode = (raw: string): boolean => /^[0-9]{6}-[0-9]$/.test(raw);
