import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { operations } from '@backoffice/client';
import { api, linkPage, unwrap, type IdempotencyHeader, type MutationCallbacks } from './client';
import { ifMatchOf, inventoryKeys } from './inventory';
import { isProblem } from './problems';

/** A category as GET /inventory/categories/{id} answers it (every view of one has this shape). */
export type Category = operations['getCategory']['responses'][200]['content']['application/json'];

/**
 * The categories' query keys, under inventory's (a product created, moved or deleted changes
 * their counts): the list pages, the picker the product forms and filters choose from, and
 * each category read alone.
 */
export const categoryKeys = {
  all: inventoryKeys.categories,
  list: (cursor: string | undefined) => [...categoryKeys.all, 'list', cursor ?? null] as const,
  picker: () => [...categoryKeys.all, 'picker'] as const,
  one: (id: string) => [...categoryKeys.all, 'one', id] as const,
};

const PAGE_SIZE = 20;
/** The API's largest page: the picker's one read. */
const PICKER_SIZE = 100;

/** GET /inventory/categories, one page by name (Link-header cursors); the previous page stays shown while the next loads. */
export function useCategories(cursor: string | undefined) {
  return useQuery({
    queryKey: categoryKeys.list(cursor),
    queryFn: ({ signal }) => linkPage(api.GET('/inventory/categories', { params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } }, signal })),
    placeholderData: keepPreviousData,
  });
}

/**
 * The categories a select chooses from (a product's, the list's filter): the first page of 100,
 * by name. A tenant with more would need a searched picker; a product's own category past them
 * is read alone (useCategory), so it is still shown and kept.
 */
export function useCategoryPicker() {
  return useQuery({
    queryKey: categoryKeys.picker(),
    queryFn: ({ signal }) => linkPage(api.GET('/inventory/categories', { params: { query: { limit: PICKER_SIZE } }, signal })),
  });
}

const readCategory = (id: string, signal: AbortSignal) => unwrap(api.GET('/inventory/categories/{id}', { params: { path: { id } }, signal }));

/** GET /inventory/categories/{id}, when there is an id (a product without a category reads nothing). */
export function useCategory(id: string | null) {
  return useQuery({
    queryKey: categoryKeys.one(id ?? ''),
    queryFn: ({ signal }) => readCategory(id ?? '', signal),
    enabled: Boolean(id),
  });
}

/**
 * The names of the categories of a list's rows: from the picker, and each one it does not hold
 * read alone (a tenant with more than 100 categories). Unknown while loading.
 */
export function useCategoryNames(ids: readonly (string | null)[]): Map<string, string> {
  const picker = useCategoryPicker();
  const names = new Map((picker.data?.items ?? []).map((category) => [category.id, category.name]));
  const missing = picker.data ? [...new Set(ids.filter((id): id is string => id !== null && !names.has(id)))] : [];
  const alone = useQueries({
    queries: missing.map((id) => ({ queryKey: categoryKeys.one(id), queryFn: ({ signal }: { signal: AbortSignal }) => readCategory(id, signal) })),
  });
  for (const result of alone) if (result.data) names.set(result.data.id, result.data.name);
  return names;
}

/** A category saved from its form: a new one with the form's Idempotency-Key, or a rename at the version the form loaded (If-Match). */
export type SaveCategory = { category: undefined; key: IdempotencyHeader; name: string } | { category: Category; name: string };

/**
 * POST /inventory/categories or PATCH /inventory/categories/{id} with `If-Match`: a rename over
 * someone else's change since is a 412 and nothing is written; a name another category has
 * (case and accents aside) is a 409. The categories read again afterwards, and after a 412.
 */
export function useSaveCategory({ onSuccess }: MutationCallbacks<Category, SaveCategory> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: SaveCategory) =>
      save.category
        ? unwrap(
            api.PATCH('/inventory/categories/{id}', {
              params: { path: { id: save.category.id }, header: { 'If-Match': ifMatchOf(save.category.version) } },
              body: { name: save.name },
            }),
          )
        : unwrap(api.POST('/inventory/categories', { params: { header: save.key }, body: { name: save.name } })),
    onSuccess: async (saved, save) => {
      queryClient.setQueryData(categoryKeys.one(saved.id), saved);
      onSuccess?.(saved, save);
      await queryClient.invalidateQueries({ queryKey: categoryKeys.all });
    },
    onError: (error) => (isProblem(error, 412) ? queryClient.invalidateQueries({ queryKey: categoryKeys.all }) : undefined),
  });
}

/** Reads a category again (after a 412): the form then starts from it as it is now. */
export function useReloadCategory() {
  const queryClient = useQueryClient();
  return (id: string) => queryClient.fetchQuery({ queryKey: categoryKeys.one(id), queryFn: ({ signal }) => readCategory(id, signal), staleTime: 0 });
}

/**
 * DELETE /inventory/categories/{id}: only a category no product uses (409 otherwise: its
 * products go to another category first). The categories read again afterwards, and after a
 * 409, whose count the list may have shown older.
 */
export function useDeleteCategory({ onSuccess }: MutationCallbacks<void, Category> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (category: Category) => {
      await unwrap(api.DELETE('/inventory/categories/{id}', { params: { path: { id: category.id } } }));
    },
    onSuccess: async (_, category) => {
      onSuccess?.(undefined, category);
      queryClient.removeQueries({ queryKey: categoryKeys.one(category.id) });
      await queryClient.invalidateQueries({ queryKey: categoryKeys.all });
    },
    onError: (error) => (isProblem(error, 409) ? queryClient.invalidateQueries({ queryKey: categoryKeys.all }) : undefined),
  });
}
