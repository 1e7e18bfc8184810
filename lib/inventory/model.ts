/**
 * The inventory's vocabulary, shared by request schemas, services, repositories and the
 * OpenAPI document.
 */

export const MOVEMENT_TYPES = ['IN', 'OUT', 'SALE', 'ADJUSTMENT'] as const;
export type MovementType = (typeof MOVEMENT_TYPES)[number];
