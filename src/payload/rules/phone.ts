/**
 * Phone numbers, checked with libphonenumber-js and its full ("max") metadata so that number
 * types are known. The library compiles its metadata regular expressions on every call (about
 * 25 µs a number), so plain numbers of the caller's region take a fast path over the same
 * metadata compiled once; anything the fast path cannot confirm goes to the library itself.
 */
import {
  Metadata,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  type CountryCode,
  type NumberType,
} from 'libphonenumber-js/core';
import metadata from 'libphonenumber-js/max/metadata';
import { text } from '../scalars.js';
import { fail, type, type Type } from '../validators.js';

interface TypeDefinition {
  pattern(): string;
  possibleLengths(): number[] | undefined;
}
// The parts of the library's numbering plan the fast path reads (untyped in its .d.ts).
interface NumberingPlan {
  callingCode(): string;
  IDDPrefix(): string | undefined;
  nationalPrefixForParsing(): string | undefined;
  nationalNumberPattern(): string;
  hasTypes(): boolean;
  type(name: string): TypeDefinition | undefined;
}

interface CompiledType {
  name: NonNullable<NumberType>;
  pattern: RegExp;
  lengths: number[] | undefined;
}

interface FastPlan {
  callingCode: string;
  idd: RegExp | undefined;
  nationalPrefix: RegExp | undefined;
  general: RegExp;
  fixedLine: CompiledType | undefined;
  mobile: CompiledType | undefined;
  others: CompiledType[];
}

// The order the library tries the non-fixed-line types in (helpers/getNumberType.js).
const OTHER_TYPES = ['MOBILE', 'PREMIUM_RATE', 'TOLL_FREE', 'SHARED_COST', 'VOIP'].concat([
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
]) as NonNullable<NumberType>[];
const FAST_INPUT = /^\+?[0-9 ().-]+$/;
const NON_DIGITS = /[^0-9]/g;
const whole = (source: string) => new RegExp(`^(?:${source})$`);

function compileType(plan: NumberingPlan, name: NonNullable<NumberType>): CompiledType | undefined {
  const definition = plan.type(name);
  const source = definition?.pattern();
  if (definition === undefined || !source) return undefined;
  return { name, pattern: whole(source), lengths: definition.possibleLengths() };
}

/** Null when the region is not the main country of its calling code (the library decides). */
function compilePlan(region: CountryCode): FastPlan | null {
  const meta = new Metadata(metadata) as unknown as {
    selectNumberingPlan(c: string): void;
    numberingPlan: NumberingPlan;
  };
  meta.selectNumberingPlan(region);
  const plan = meta.numberingPlan;
  const callingCode = plan.callingCode();
  const mobileDefinition = plan.type('MOBILE');
  // A "same as fixed line" mobile pattern needs the library's FIXED_LINE_OR_MOBILE logic.
  if (metadata.country_calling_codes[callingCode]?.[0] !== region || !plan.hasTypes()) return null;
  if (mobileDefinition !== undefined && mobileDefinition.pattern() === '') return null;
  const idd = plan.IDDPrefix();
  const prefix = plan.nationalPrefixForParsing();
  return {
    callingCode,
    idd: idd ? new RegExp(`^(?:${idd})`) : undefined,
    nationalPrefix: prefix ? new RegExp(`^(?:${prefix})`) : undefined,
    general: whole(plan.nationalNumberPattern()),
    fixedLine: compileType(plan, 'FIXED_LINE'),
    mobile: compileType(plan, 'MOBILE'),
    others: OTHER_TYPES.map((name) => compileType(plan, name)).filter((t) => t !== undefined),
  };
}

const plans = new Map<string, FastPlan | null>();
const REGIONS: ReadonlySet<string> = new Set(Object.keys(metadata.countries));
const isRegion = (region: string): region is CountryCode => REGIONS.has(region);

function matches(national: string, t: CompiledType | undefined): boolean {
  if (t === undefined) return false;
  if (t.lengths !== undefined && !t.lengths.includes(national.length)) return false;
  return t.pattern.test(national);
}

function numberType(national: string, plan: FastPlan): NumberType {
  if (!plan.general.test(national)) return undefined;
  if (matches(national, plan.fixedLine)) {
    if (plan.mobile === undefined || matches(national, plan.mobile)) return 'FIXED_LINE_OR_MOBILE';
    return 'FIXED_LINE';
  }
  for (const t of plan.others) if (matches(national, t)) return t.name;
  return undefined;
}

export interface ParsedPhone {
  e164: string;
  type: NumberType;
  /** An extension written after the number (`ext 12`, `x12`), which E.164 cannot hold. */
  extension?: string;
}

/** Confirms a plain national or +<calling code> number of `region`; undefined = ask the library. */
export function fastParse(input: string, region: CountryCode): ParsedPhone | undefined {
  let plan = plans.get(region);
  if (plan === undefined) plans.set(region, (plan = compilePlan(region)));
  if (plan === null || !FAST_INPUT.test(input)) return undefined;
  const international = input.charCodeAt(0) === 43;
  const digits = input.replace(NON_DIGITS, '');
  if (international && !digits.startsWith(plan.callingCode)) return undefined;
  if (!international && plan.idd?.test(digits) === true) return undefined;
  let national = international ? digits.slice(plan.callingCode.length) : digits;
  const prefix = plan.nationalPrefix?.exec(national);
  if (prefix) {
    // Carrier codes and transform rules are the library's business.
    if (prefix.length > 1 && prefix[prefix.length - 1]) return undefined;
    national = national.slice(prefix[0].length);
  }
  const t = numberType(national, plan);
  return t === undefined ? undefined : { e164: `+${plan.callingCode}${national}`, type: t };
}

/** Library-only parsing; also the reference the fast path is tested against. */
export function parseWithLibrary(input: string, region: CountryCode): ParsedPhone | undefined {
  const options = { defaultCountry: region, extract: false };
  const parsed = parsePhoneNumberFromString(input, options, metadata);
  if (parsed === undefined || !parsed.isValid()) return undefined;
  const number = { e164: parsed.number, type: parsed.getType() };
  return parsed.ext === undefined ? number : { ...number, extension: parsed.ext };
}

const regionOf = (region: string): CountryCode => (isRegion(region) ? region : 'GB');

/** Parses a number written nationally for `region` (GB if unknown) or internationally. */
export function parsePhone(input: string, region: string): ParsedPhone | undefined {
  const country = regionOf(region);
  return fastParse(input, country) ?? parseWithLibrary(input, country);
}

const callingCodePrefixes = new Map<string, string>();

/** Whether the E.164 number belongs to the numbering plan of `region` (GB if unknown). */
export function inRegionPlan(e164: string, region: string): boolean {
  let prefix = callingCodePrefixes.get(region);
  if (prefix === undefined) {
    prefix = `+${getCountryCallingCode(regionOf(region), metadata)}`;
    callingCodePrefixes.set(region, prefix);
  }
  return e164.startsWith(prefix);
}

/**
 * A phone number (`invalid_phone_number`) normalised to E.164. A mobile may be of any country
 * when written internationally, and must be mobile-capable; a landline must be of the
 * supplier's region (payload/README.md), that is, of its country calling code.
 */
export function phone(kind: 'mobile' | 'landline'): Type<string> {
  const detail =
    kind === 'mobile'
      ? 'Enter a valid mobile phone number.'
      : "Enter a valid phone number of the supplier's region.";
  return type(
    (value, path, run) => {
      const s = text(value, path, run);
      if (typeof s !== 'string') return s;
      const parsed = parsePhone(s, run.phoneRegion);
      if (parsed === undefined) return fail(run, path, 'invalid_phone_number', detail);
      if (parsed.extension !== undefined) {
        // Dropping it would lose it without a word; the sender decides what to do with it.
        return fail(
          run,
          path,
          'invalid_phone_number',
          'A phone extension cannot be stored; send the number without it.',
        );
      }
      const fits =
        kind === 'mobile'
          ? parsed.type === 'MOBILE' || parsed.type === 'FIXED_LINE_OR_MOBILE'
          : inRegionPlan(parsed.e164, run.phoneRegion);
      return fits ? parsed.e164 : fail(run, path, 'invalid_phone_number', detail);
    },
    {
      type: 'string',
      description:
        kind === 'mobile'
          ? "Mobile-capable phone number, national (supplier's region) or international; normalised to E.164."
          : "Phone number of the supplier's region, national or international; normalised to E.164.",
    },
  );
}
