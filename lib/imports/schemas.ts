import * as classic from 'zod';
import * as z from 'zod/mini';
import { documented, requiredText } from '../domain/fields';
import { gtinField, quantityField, unitCostField } from '../inventory/schemas';
import { schema } from '../domain/schema';
import { IMPORT_KINDS, IMPORT_STATUSES, MAX_IMPORT_BYTES } from './model';

export const createImportBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    kind: z.enum(IMPORT_KINDS, { message: `must be one of ${IMPORT_KINDS.join(', ')}` }),
    /** Check every row and report, writing nothing. */
    dryRun: z._default(z.boolean({ message: 'must be true or false' }), false),
    fileName: requiredText(200),
    size: documented(
      z
        .number({ message: 'must be a whole number of bytes' })
        .check(
          z.int('must be a whole number of bytes'),
          z.gte(1, 'must be at least 1 byte'),
          z.lte(MAX_IMPORT_BYTES, `must be at most ${MAX_IMPORT_BYTES} bytes (10 MB)`),
        ),
      {
        description: "The file's size in bytes: the upload must be exactly this size.",
        examples: [48_213],
      },
    ),
  }),
);
export type CreateImportInput = z.output<typeof createImportBody>;

/** A row of opening stock (kind `stock`): the product by SKU or GTIN, the warehouse by name, the quantity and its unit cost. */
export const stockRowBody = /* @__PURE__ */ schema(() =>
  z
    .strictObject({
      sku: z.optional(requiredText(64)),
      gtin: z.optional(gtinField),
      warehouse: requiredText(200),
      quantity: quantityField,
      unitCost: z.optional(unitCostField),
    })
    .check(z.refine((row) => row.sku !== undefined || row.gtin !== undefined, { message: 'give the SKU or the GTIN of the product', path: ['sku'] })),
);
export type StockRow = z.output<typeof stockRowBody>;

const rowError = /* @__PURE__ */ schema(() =>
  classic.object({
    line: classic.number().int().meta({ description: 'The line in the file (1 is the header).' }),
    field: classic.string().meta({ description: 'The column as the file names it (empty for the row as a whole).' }),
    message: classic.string().meta({ description: "The API's message for that value." }),
  }),
);

/** A job as the API shows it. */
export const importView = /* @__PURE__ */ schema(() =>
  classic.object({
    id: classic.uuid(),
    kind: classic.enum(IMPORT_KINDS),
    dryRun: classic.boolean(),
    status: classic.enum(IMPORT_STATUSES),
    fileName: classic.string(),
    size: classic.number().int(),
    totalRows: classic.number().int().nullable().meta({ description: 'Data rows in the file, once it is read.' }),
    rowsDone: classic.number().int(),
    created: classic.number().int().meta({ description: 'Rows that made a record (a dry run: that would).' }),
    existing: classic.number().int().meta({ description: 'Rows whose SKU or document the tenant already has: nothing was written for them.' }),
    refused: classic.number().int(),
    errors: classic.array(rowError).meta({ description: 'The refused rows, in file order, up to 1,000.' }),
    errorsTruncated: classic.boolean(),
    ignoredColumns: classic.array(classic.string()).meta({ description: 'Header cells no field claims.' }),
    failure: classic.string().nullable(),
    etaSeconds: classic
      .number()
      .int()
      .nullable()
      .meta({ description: 'About how long the rest takes, from the pace so far; null before the first step and after the end.' }),
    createdBy: classic.object({ id: classic.uuid(), name: classic.string() }),
    createdAt: classic.iso.datetime(),
    startedAt: classic.iso.datetime().nullable(),
    finishedAt: classic.iso.datetime().nullable(),
  }),
);
export type ImportView = classic.infer<typeof importView>;

/** POST /imports' answer: the job and where to PUT its file. */
export const importCreatedView = /* @__PURE__ */ schema(() =>
  classic.object({
    ...importView.shape,
    upload: classic.object({
      method: classic.literal('PUT'),
      url: classic.string().meta({ description: 'Where to PUT the file: an absolute URL when deployed (S3), a path on the API locally.' }),
      headers: classic.record(classic.string(), classic.string()).meta({ description: 'Headers the upload must carry as they are.' }),
      expiresAt: classic.iso.datetime(),
    }),
  }),
);
export type ImportCreatedView = classic.infer<typeof importCreatedView>;
