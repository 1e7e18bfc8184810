import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@backoffice/client';
import { api, linkPage, unwrap, type IdempotencyHeader, type MutationCallbacks } from './client';

type Company = components['schemas']['Company'];
type CompanyStatus = Company['status'];
type CreateCompanyBody = components['schemas']['CreateCompanyRequest'];
type UpdateCompanyBody = components['schemas']['UpdateCompanyRequest'];

/** A page of the companies list: its number and the cursor that reads it (none: the first). */
export interface CompanyPage {
  page: number;
  cursor: string | undefined;
}

/** The companies' query keys: everything under `all`, so one invalidation refreshes the list and the pickers. */
export const companyKeys = {
  all: ['companies'] as const,
  list: ({ page, cursor }: CompanyPage) => [...companyKeys.all, 'list', { page, cursor }] as const,
  picker: () => [...companyKeys.all, 'picker'] as const,
};

/** The companies page's size. */
export const COMPANIES_PAGE_SIZE = 20;

/** GET /companies, one page (Link-header cursors), oldest first; the previous page stays shown while the next loads. */
export function useCompanies(at: CompanyPage) {
  return useQuery({
    queryKey: companyKeys.list(at),
    queryFn: ({ signal }) => linkPage(api.GET('/companies', { params: { query: { limit: COMPANIES_PAGE_SIZE, cursor: at.cursor } }, signal })),
    placeholderData: keepPreviousData,
  });
}

/**
 * The tenant's companies for a picker (an API key's company limit, the key list's company
 * names): the first page of GET /companies (100, the API's largest page). A company past it
 * shows its id instead of its name.
 */
export function useCompanyPicker() {
  return useQuery({
    queryKey: companyKeys.picker(),
    queryFn: ({ signal }) => linkPage(api.GET('/companies', { params: { query: { limit: 100 } }, signal })),
  });
}

/** A company saved from its form: a new one with the form's Idempotency-Key, or an existing one with what changed (nothing: no call). */
export type SaveCompany = { record: undefined; key: IdempotencyHeader; create: CreateCompanyBody } | { record: Company; update: UpdateCompanyBody | undefined };

/** POST /companies or PATCH /companies/{id}; the companies read again afterwards. */
export function useSaveCompany({ onSuccess }: MutationCallbacks<Company, SaveCompany> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (save: SaveCompany): Promise<Company> => {
      if (!save.record) return unwrap(api.POST('/companies', { params: { header: save.key }, body: save.create }));
      if (!save.update) return save.record;
      return unwrap(api.PATCH('/companies/{id}', { params: { path: { id: save.record.id } }, body: save.update }));
    },
    onSuccess: (saved, save) => {
      onSuccess?.(saved, save);
      void queryClient.invalidateQueries({ queryKey: companyKeys.all });
    },
  });
}

/** PATCH /companies/{id}/status (administrators; a member's 403 is the mutation's error); the companies read again afterwards. */
export function useChangeCompanyStatus(id: string, { onSuccess }: MutationCallbacks<Company, CompanyStatus> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: CompanyStatus) => unwrap(api.PATCH('/companies/{id}/status', { params: { path: { id } }, body: { status } })),
    onSuccess: (changed, status) => {
      onSuccess?.(changed, status);
      void queryClient.invalidateQueries({ queryKey: companyKeys.all });
    },
  });
}
