/**
 * `npm run phone-metadata`: write lib/domain/phone-metadata.json, the phone metadata of the
 * country calling codes the service accepts (tools/phone-metadata.ts lists them), cut from
 * the installed libphonenumber-js's full metadata. Run it after changing the list or
 * updating libphonenumber-js; test/unit/phones.test.ts fails while the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { ACCEPTED_CALLING_CODES, PHONE_METADATA_FILE, phoneMetadata, phoneMetadataText } from '../tools/phone-metadata';

const metadata = phoneMetadata();
const text = phoneMetadataText(metadata);
writeFileSync(PHONE_METADATA_FILE, text);
const countries = Object.keys((metadata as unknown as { countries: object }).countries).length;
console.log(`${PHONE_METADATA_FILE}: ${ACCEPTED_CALLING_CODES.length} calling codes, ${countries} countries, ${(text.length / 1024).toFixed(1)} KB`);
