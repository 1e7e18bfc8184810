import * as classic from 'zod';
import * as z from 'zod/mini';
import { documented } from '../domain/fields';
import { isDay } from '../domain/days';
import { schema } from '../domain/schema';
import { EXPORT_KINDS, EXPORT_STATUSES, PERIOD_KINDS } from './model';

/** A business day, `YYYY-MM-DD` (a period's bound: the whole day in the business time zone). */
const periodDay = /* @__PURE__ */ schema(() =>
  documented(z.string().check(z.refine(isDay, 'must be a day written YYYY-MM-DD')), {
    description: 'A business day, YYYY-MM-DD (the whole day in the business time zone).',
    examples: ['2026-11-01'],
  }),
);

/**
 * POST /exports: the kinds with a period take `from` and `to`, both required; the others take
 * neither (an unknown field, named). The period's order and length are the service's checks
 * (lib/exports/service `checkPeriod`), each naming its field.
 */
export const createExportBody = /* @__PURE__ */ schema(() =>
  z.discriminatedUnion(
    'kind',
    [z.strictObject({ kind: z.enum(['suppliers', 'products']) }), z.strictObject({ kind: z.enum(PERIOD_KINDS), from: periodDay, to: periodDay })],
    { error: `must be one of ${EXPORT_KINDS.join(', ')}` },
  ),
);
export type CreateExportInput = z.output<typeof createExportBody>;

/** A job as the API shows it. */
export const exportView = /* @__PURE__ */ schema(() =>
  classic.object({
    id: classic.uuid(),
    kind: classic.enum(EXPORT_KINDS),
    status: classic.enum(EXPORT_STATUSES),
    from: classic.string().nullable().meta({ description: "The period's first business day (stock-history and audit); null for the others." }),
    to: classic.string().nullable().meta({ description: "The period's last business day, inclusive; null for the kinds without a period." }),
    rows: classic.number().int().meta({ description: 'Data rows written so far (the header not counted).' }),
    createdAt: classic.iso.datetime(),
    finishedAt: classic.iso.datetime().nullable(),
    failure: classic.string().nullable().meta({ description: 'Why a failed job failed.' }),
    download: classic
      .object({
        url: classic.string().meta({
          description:
            'A GET link to the file, valid 15 minutes: an absolute URL when deployed (S3), a path on the API locally. Ask GET /exports/{id} again for a fresh one.',
        }),
        expiresAt: classic.iso.datetime(),
        fileName: classic.string().meta({ description: 'The name the file downloads as, e.g. fornecedores-2026-11-26.csv.' }),
      })
      .nullable()
      .meta({ description: 'Where to download the file once the job is done; null before, after a failure, and once the file expired (7 days).' }),
  }),
);
export type ExportView = classic.infer<typeof exportView>;
export type DownloadLink = NonNullable<ExportView['download']>;
