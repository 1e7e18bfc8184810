import { toAuthorizerContext, type Principal } from '../../lib/auth/principal';
import { keys } from '../../lib/db/keys';
import { ALLOWED_ORIGIN, proxyEvent } from '../../tools/events';

/** A supplier's stored item as the repository writes it (keys, sort name, version), for handler tests with a mocked client. */
export const storedSupplierItem = (tenantId: string, supplierId: string, extra: Record<string, unknown> = {}) => ({
  ...keys.supplier(tenantId, supplierId),
  type: 'Supplier',
  id: supplierId,
  name: 'Acme',
  corporateName: 'Acme Comércio LTDA',
  document: '11222333000181',
  active: true,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  sortName: 'acme',
  version: 3,
  ...extra,
});

/** A request to /suppliers/{id} from the allowed origin, by a signed-in principal. */
export const supplierIdEvent = (method: 'GET' | 'DELETE', id: string, principal: Principal, requestId: string) =>
  proxyEvent({
    method,
    resource: '/suppliers/{id}',
    path: `/suppliers/${id}`,
    pathParameters: { id },
    requestId,
    authorizer: toAuthorizerContext(principal),
    headers: { Origin: ALLOWED_ORIGIN },
  });
