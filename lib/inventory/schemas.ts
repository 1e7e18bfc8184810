import * as z from 'zod';
import { nameField, requiredText, uuidField } from '../domain/fields';

export const MOVEMENT_TYPES = ['IN', 'OUT', 'SALE', 'ADJUSTMENT'] as const;
export type MovementType = (typeof MOVEMENT_TYPES)[number];

/** Quantities and costs: finite, at most a billion, at most 4 decimal places. */
const amount = z
  .number()
  .max(1e9, 'must be at most 1000000000')
  .refine((value) => Math.abs(value * 1e4 - Math.round(value * 1e4)) < 1e-6, 'must have at most 4 decimal places');

export const warehouseBody = z.strictObject({ name: nameField });

export const productBody = z.strictObject({
  sku: requiredText(64).regex(/^[A-Za-z0-9._/-]+$/, 'must be letters, digits and . _ / - only'),
  name: nameField,
});

export const movementBody = z
  .strictObject({
    productId: uuidField,
    warehouseId: uuidField,
    type: z.enum(MOVEMENT_TYPES, { message: `must be one of ${MOVEMENT_TYPES.join(', ')}` }),
    quantity: amount.pipe(z.number().min(0, 'must not be negative')),
    unitCost: amount.pipe(z.number().min(0, 'must not be negative')).optional(),
    occurredAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2026-11-21T10:00:00.000Z' }).optional(),
  })
  .superRefine((movement, ctx) => {
    if (movement.type !== 'ADJUSTMENT' && movement.quantity <= 0) {
      ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'must be greater than 0' });
    }
    if (movement.type === 'IN' && movement.unitCost === undefined) {
      ctx.addIssue({ code: 'custom', path: ['unitCost'], message: 'is required for IN' });
    }
    if ((movement.type === 'OUT' || movement.type === 'SALE') && movement.unitCost !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['unitCost'], message: `is not accepted for ${movement.type}: stock leaves at its average cost` });
    }
  });

export const coverageQuery = z.strictObject({
  days: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of days from 1 to 365')
    .transform(Number)
    .pipe(z.number().int().min(1, 'must be at least 1').max(365, 'must be at most 365'))
    .default(30),
});
