/** UK postcodes: the Royal Mail shapes, normalised to upper case with the single space. */
import { asciiUpperCase, text } from '../scalars.js';
import { fail, type, type Type } from '../validators.js';

// Outward code (A9, A99, AA9, AA99, A9A, AA9A with the letters each position allows),
// then the inward code (9AA); GIR 0AA is the one historic exception.
const OUTWARD =
  '(?:[A-PR-UWYZ][0-9]{1,2}|[A-PR-UWYZ][A-HK-Y][0-9]{1,2}|[A-PR-UWYZ][0-9][A-HJKPSTUW]|[A-PR-UWYZ][A-HK-Y][0-9][ABEHMNPRVWXY])';
const INWARD = '[0-9][ABD-HJLNP-UW-Z]{2}';
const COMPACT = new RegExp(`^(?:${OUTWARD}${INWARD}|GIR0AA)$`);
/** The published pattern (normalised form), also accepted case-insensitively on input. */
export const UK_POSTCODE_PATTERN = `^(?:${OUTWARD} ${INWARD}|GIR 0AA)$`;
const SPACES = /\s+/g;

/** The normalised postcode (`SW1A 1AA`), or undefined when `raw` is not a UK postcode. */
export function normaliseUkPostcode(raw: string): string | undefined {
  const compact = asciiUpperCase(raw.replace(SPACES, ''));
  if (compact === undefined || compact.length < 5 || compact.length > 7 || !COMPACT.test(compact))
    return undefined;
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}

/** A UK postcode (`invalid_postcode`), output as upper case with a single space. */
export const ukPostcode: Type<string> = type(
  (value, path, run) => {
    const s = text(value, path, run);
    if (typeof s !== 'string') return s;
    return (
      normaliseUkPostcode(s) ?? fail(run, path, 'invalid_postcode', 'Enter a valid UK postcode.')
    );
  },
  {
    type: 'string',
    pattern: UK_POSTCODE_PATTERN,
    description: 'UK postcode; any case and spacing accepted, normalised to e.g. "SW1A 1AA".',
  },
);
