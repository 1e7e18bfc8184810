import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { components } from '@backoffice/client';
import { jobOf, pollInterval } from '../pages/imports/logic';
import { uploadFile } from '../pages/imports/upload';
import { inventoryKeys } from './inventory';
import { api, unwrap } from './client';
import { supplierKeys } from './suppliers';

type CreateImportBody = components['schemas']['CreateImportRequest'];

export const importKeys = {
  detail: (id: string) => ['imports', id] as const,
};

/** An import to start: POST /imports' body and the file it announces. */
export interface StartImport {
  body: CreateImportBody;
  file: File;
}

/**
 * POST /imports, then the file PUT where its answer says (a failed upload is an UploadError).
 * The route takes no Idempotency-Key: the caller disables its button while a start runs. The
 * job's first state is put in its query so that the report shows at once.
 */
export function useStartImport(onStarted: (id: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ body, file }: StartImport) => {
      const created = await unwrap(api.POST('/imports', { body }));
      await uploadFile(created.upload, file);
      return created;
    },
    onSuccess: (created) => {
      queryClient.setQueryData(importKeys.detail(created.id), jobOf(created));
      onStarted(created.id);
    },
  });
}

/**
 * GET /imports/{id}, every second while the job waits for its file or runs, then left alone.
 * Once a real import has written rows, the lists it wrote to (suppliers or inventory) are read
 * again.
 */
export function useImportJob(id: string) {
  const queryClient = useQueryClient();
  const job = useQuery({
    queryKey: importKeys.detail(id),
    queryFn: ({ signal }) => unwrap(api.GET('/imports/{id}', { params: { path: { id } }, signal })),
    refetchInterval: (query) => pollInterval(query.state.data),
  });
  const data = job.data;
  const wrote = data !== undefined && !data.dryRun && data.status === 'succeeded' && data.created > 0;
  const kind = data?.kind;
  useEffect(() => {
    if (wrote && kind) void queryClient.invalidateQueries({ queryKey: kind === 'suppliers' ? supplierKeys.all : inventoryKeys.all });
  }, [wrote, kind, queryClient]);
  return job;
}
