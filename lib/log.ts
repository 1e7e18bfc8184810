import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The one structured JSON logger of the service. Handlers append requestId, tenantId and
 * userId per invocation (see `lib/http/handler.ts`). Nothing that carries a secret is ever
 * passed to it: bodies, cookies and tokens stay out of the log by construction.
 */
export const logger = new Logger({ serviceName: 'backoffice-api' });
