import { createRequire } from 'node:module';
import type { MetadataJson } from 'libphonenumber-js/core';

/**
 * The phone metadata the service validates with (lib/domain/phone-metadata.json): libphonenumber's
 * full (`max`) metadata cut down to the country calling codes the service accepts. A number
 * under any other code is refused like any invalid phone. `npm run phone-metadata` writes it;
 * test/unit/phones.test.ts fails when the committed file is not what this returns.
 *
 * The full metadata was 190 KB of each function that validates phones (POST and PATCH
 * /tenants and /suppliers) and about 5 ms of their cold start; the service is Brazilian
 * (CPF/CNPJ, CEP, UF) and its tenants' and suppliers' phones are Brazil's and those of the
 * countries a Brazilian merchant buys from or sells to.
 *
 * Each country keeps every rule that parsing and validation read (its calling code, IDD and
 * national prefixes, number pattern, possible lengths, number types, leading digits); its
 * formats (how to print a number nationally or internationally) are emptied: the service
 * stores and answers E.164 and never formats a phone, and they were a third of the file. The
 * unit test holds the answers to those of the full metadata.
 *
 * A calling code is kept whole, with every country that shares it (+1 is the United States,
 * Canada and the Caribbean of the North American Numbering Plan; +44 the United Kingdom, Guernsey,
 * Jersey and the Isle of Man): libphonenumber tells them apart by their numbers, so keeping
 * one country of a shared code alone would refuse some valid numbers of the code and could
 * take others for the wrong country.
 */
export const ACCEPTED_CALLING_CODES = [
  // Brazil.
  '55',
  // The rest of South America: the Mercosur members and associates, the neighbours.
  '54', // Argentina
  '591', // Bolivia
  '56', // Chile
  '57', // Colombia
  '593', // Ecuador
  '592', // Guyana
  '595', // Paraguay
  '51', // Peru
  '597', // Suriname
  '598', // Uruguay
  '58', // Venezuela
  // North America: the NANP (United States, Canada, the Caribbean) and Mexico.
  '1',
  '52',
  // Europe: Portugal, Spain, the United Kingdom (and the Crown Dependencies), France, Germany, Italy (and the Vatican).
  '351',
  '34',
  '44',
  '33',
  '49',
  '39',
  // Asia: China, Japan.
  '86',
  '81',
] as const;

type FullMetadata = MetadataJson & {
  version: number;
  country_calling_codes: Record<string, string[]>;
  countries: Record<string, unknown>;
  nonGeographic?: Record<string, unknown>;
};

/** libphonenumber's full metadata, from the installed package. */
export function fullPhoneMetadata(): FullMetadata {
  return createRequire(import.meta.url)('libphonenumber-js/metadata.max.json') as FullMetadata;
}

/**
 * The full metadata with only `codes` and their countries: same version, the same entries for
 * what it keeps but their formats (key order as in the source), no non-geographic numbering
 * plans (+800 and the like, which belong to no country).
 */
export function phoneMetadata(codes: readonly string[] = ACCEPTED_CALLING_CODES, full: FullMetadata = fullPhoneMetadata()): MetadataJson {
  if (full.version !== 4) throw new Error(`phone metadata: version ${full.version}; this generator knows version 4`);
  const callingCodes: Record<string, string[]> = {};
  const countries: Record<string, unknown> = {};
  for (const [code, regions] of Object.entries(full.country_calling_codes)) {
    if (!codes.includes(code)) continue;
    callingCodes[code] = regions;
  }
  const missing = codes.filter((code) => !(code in callingCodes));
  if (missing.length) throw new Error(`phone metadata: no country calling code ${missing.join(', ')} in libphonenumber's metadata`);
  const kept = new Set(Object.values(callingCodes).flat());
  for (const [region, entry] of Object.entries(full.countries)) {
    if (kept.has(region)) countries[region] = withoutFormats(entry);
  }
  return { version: full.version, country_calling_codes: callingCodes, countries } as unknown as MetadataJson;
}

/**
 * A country's entry with no formats. The entry is libphonenumber's compact array (metadata
 * version 4): the formats are at index 4; an empty list keeps every other field in its place.
 */
const FORMATS_INDEX = 4;

function withoutFormats(entry: unknown): unknown {
  if (!Array.isArray(entry)) throw new Error('phone metadata: a country entry is not the version-4 array this generator knows');
  const copy = [...(entry as unknown[])];
  // A country without formats of its own (one sharing its calling code's) has none to empty.
  if (Array.isArray(copy[FORMATS_INDEX])) copy[FORMATS_INDEX] = [];
  return copy;
}

/** The file's text, as committed. */
export const phoneMetadataText = (metadata: MetadataJson = phoneMetadata()): string => `${JSON.stringify(metadata)}\n`;

/** Where the service reads it from. */
export const PHONE_METADATA_FILE = 'lib/domain/phone-metadata.json';
