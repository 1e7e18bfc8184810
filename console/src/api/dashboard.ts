import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, linkPage, unwrap } from './client';
import { inventoryKeys } from './inventory';

/** The dashboard's query keys: under inventory's, since every stock movement changes them. */
export const dashboardKeys = {
  all: inventoryKeys.dashboard,
  byWarehouse: () => [...dashboardKeys.all, 'by-warehouse'] as const,
  coverage: (days: number, cursor: string | undefined) => [...dashboardKeys.all, 'coverage', days, cursor ?? null] as const,
};

export const COVERAGE_PAGE_SIZE = 50;

/** GET /inventory/dashboard/by-warehouse: each warehouse's totals. */
export function useStockByWarehouse() {
  return useQuery({
    queryKey: dashboardKeys.byWarehouse(),
    queryFn: ({ signal }) => unwrap(api.GET('/inventory/dashboard/by-warehouse', { signal })),
  });
}

/** The day whose sales a coverage page counts, and whether it is an earlier day's (the daily precomputation has not completed today's). */
export interface CoverageFigures {
  date: string | undefined;
  stale: boolean;
}

export const coverageFiguresOf = (response: Response): CoverageFigures => ({
  date: response.headers.get('Coverage-Figures-Date') ?? undefined,
  stale: response.headers.get('Coverage-Stale') === 'true',
});

/** GET /inventory/dashboard/coverage over `days`, one page of 50 (Link-header cursors) and its figures' day; the previous page stays shown while the next loads. */
export function useCoverage(days: number, cursor: string | undefined) {
  return useQuery({
    queryKey: dashboardKeys.coverage(days, cursor),
    queryFn: async ({ signal }) => {
      const call = api.GET('/inventory/dashboard/coverage', { params: { query: { days, limit: COVERAGE_PAGE_SIZE, ...(cursor ? { cursor } : {}) } }, signal });
      const page = await linkPage(call);
      return { ...page, figures: coverageFiguresOf((await call).response) };
    },
    placeholderData: keepPreviousData,
  });
}
