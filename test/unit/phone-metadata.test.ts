import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { getCountryCallingCode, parsePhoneNumberFromString as parseWithFullMetadata, type CountryCode } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { toE164 } from '../../lib/domain/phones';
import { ACCEPTED_CALLING_CODES, fullPhoneMetadata, PHONE_METADATA_FILE, phoneMetadataText } from '../../tools/phone-metadata';

/** What the service did with libphonenumber's full metadata, every country accepted. */
function withFullMetadata(input: string): string | undefined {
  const value = input.trim();
  if (!/^\+[0-9 .()-]+$/.test(value)) return undefined;
  const phone = parseWithFullMetadata(value);
  return phone?.isValid() ? phone.number : undefined;
}

const full = fullPhoneMetadata();
const acceptedRegions = ACCEPTED_CALLING_CODES.flatMap((code) => full.country_calling_codes[code] ?? []);
const examples = createRequire(import.meta.url)('libphonenumber-js/examples.mobile.json') as Record<string, string>;

describe('the phone metadata', () => {
  it('is what `npm run phone-metadata` writes from the installed libphonenumber-js', () => {
    expect(readFileSync(PHONE_METADATA_FILE, 'utf8')).toBe(phoneMetadataText());
  });

  it('keeps no formats (the service stores and answers E.164, never a formatted phone)', () => {
    const { countries } = JSON.parse(phoneMetadataText()) as { countries: Record<string, unknown[]> };
    for (const entry of Object.values(countries)) expect([undefined, 0]).toContain((entry[4] as unknown[] | undefined)?.length);
  });

  it('keeps every country of each accepted calling code', () => {
    expect(acceptedRegions).toEqual(expect.arrayContaining(['BR', 'US', 'CA', 'GB', 'JE', 'GG', 'IM', 'PT', 'AR']));
    expect(new Set(acceptedRegions).size).toBe(acceptedRegions.length);
  });
});

describe('toE164 with the reduced metadata', () => {
  it.each([
    ['+55 11 98765-4321', '+5511987654321'],
    ['+55 (21) 3333-4444', '+552133334444'],
    ['+55 61 2020-3030', '+556120203030'],
    ['+55 0800 123 4567', '+558001234567'],
    ['+55 11 8765-432', undefined],
    ['+1 202 456 1111', '+12024561111'],
    ['+1 416 979 2000', '+14169792000'],
    ['+1 613 555 0123', '+16135550123'],
    ['+44 20 7946 0958', '+442079460958'],
    ['+44 7911 123456', '+447911123456'],
    ['+44 1534 456789', '+441534456789'],
    ['+44 7700 900123', undefined],
    ['+351 912 345 678', '+351912345678'],
    ['+54 9 11 2345-6789', '+5491123456789'],
    ['+598 94 231 234', '+59894231234'],
    ['+86 131 2345 6789', '+8613123456789'],
  ])('%j: as with the full metadata (%s)', (input, e164) => {
    expect(toE164(input)).toBe(e164);
    expect(toE164(input)).toBe(withFullMetadata(input));
  });

  it("accepts each accepted country's example mobile number, as the full metadata does", () => {
    for (const region of acceptedRegions) {
      const example = examples[region];
      if (!example) continue;
      const input = `+${getCountryCallingCode(region as CountryCode)} ${example}`;
      expect([region, toE164(input)]).toEqual([region, withFullMetadata(input)]);
      expect([region, toE164(input)]).not.toEqual([region, undefined]);
    }
  });

  it('refuses valid numbers of the countries it does not accept', () => {
    for (const input of ['+7 912 345-67-89', '+48 512 345 678', '+91 98765 43210', '+61 412 345 678', '+800 1234 5678']) {
      expect(withFullMetadata(input)).toBeDefined();
      expect(toE164(input)).toBeUndefined();
    }
  });

  it('agrees with the full metadata on any digits under an accepted calling code', () => {
    const digits = fc.stringMatching(/^[0-9]{2,15}$/);
    const separator = fc.constantFrom('', ' ', '-', '.');
    fc.assert(
      fc.property(fc.constantFrom(...ACCEPTED_CALLING_CODES), separator, digits, (code, between, rest) => {
        const input = `+${code}${between}${rest}`;
        expect(toE164(input)).toBe(withFullMetadata(input));
      }),
      { numRuns: 3000 },
    );
  });

  it("agrees with the full metadata on numbers made from each accepted country's example", () => {
    // Neighbours of a valid number: the same length and prefix, other digits at the end.
    fc.assert(
      fc.property(fc.constantFrom(...acceptedRegions.filter((region) => examples[region])), fc.stringMatching(/^[0-9]{1,4}$/), (region, tail) => {
        const example = examples[region] as string;
        const input = `+${getCountryCallingCode(region as CountryCode)}${example.slice(0, -tail.length)}${tail}`;
        expect(toE164(input)).toBe(withFullMetadata(input));
      }),
      { numRuns: 3000 },
    );
  });
});
