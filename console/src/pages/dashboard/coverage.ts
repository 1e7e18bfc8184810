import type { components } from '@backoffice/client';

/**
 * The coverage dashboard's rules, apart from React: which products run out within the horizon
 * the user picked, and which reference periods the API takes.
 */
export type CoverageItem = components['schemas']['CoverageItem'];

export const PRESET_PERIODS = [7, 30, 90] as const;
export const DEFAULT_PERIOD = 30;
export const DEFAULT_HORIZON = 14;
export const MIN_DAYS = 1;
export const MAX_DAYS = 365;

/**
 * True when the product's stock runs out within `horizon` days at the period's sales rate:
 * a coverage at or under the horizon. A product without sales (coverage `null`) never does,
 * whatever its stock; one with sales and nothing on hand (coverage 0) already has.
 */
export function runsOutWithin(item: Pick<CoverageItem, 'estimatedCoverageDays'>, horizon: number): boolean {
  return item.estimatedCoverageDays !== null && item.estimatedCoverageDays <= horizon;
}

/** A whole number of days the API takes (1 to 365) from what was typed; undefined otherwise. */
export function parseDays(input: string): number | undefined {
  const text = input.trim();
  if (!/^\d{1,3}$/.test(text)) return undefined;
  const days = Number(text);
  return days >= MIN_DAYS && days <= MAX_DAYS ? days : undefined;
}

/** A horizon typed by the user: a whole number of days from 0; undefined otherwise. */
export function parseHorizon(input: string): number | undefined {
  const text = input.trim();
  if (!/^\d{1,4}$/.test(text)) return undefined;
  return Number(text);
}
