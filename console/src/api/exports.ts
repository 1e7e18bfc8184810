import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { pollInterval, type ExportRequest } from '../pages/exports/logic';
import { api, unwrap } from './client';

export const exportKeys = {
  detail: (id: string) => ['exports', id] as const,
};

/**
 * POST /exports. The route takes no Idempotency-Key: the caller disables its button while a
 * start runs. The answer is the job's first state, put in its query so that it shows at once.
 */
export function useStartExport(onStarted: (id: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ExportRequest) => unwrap(api.POST('/exports', { body })),
    onSuccess: (created) => {
      queryClient.setQueryData(exportKeys.detail(created.id), created);
      onStarted(created.id);
    },
  });
}

/** GET /exports/{id}, every second while the job is queued or running, then left alone. */
export function useExportJob(id: string) {
  return useQuery({
    queryKey: exportKeys.detail(id),
    queryFn: ({ signal }) => unwrap(api.GET('/exports/{id}', { params: { path: { id } }, signal })),
    refetchInterval: (query) => pollInterval(query.state.data),
  });
}
