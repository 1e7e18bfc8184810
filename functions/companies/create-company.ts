import { companyView, createCompanyBody } from '../../lib/companies/schemas';
import { createCompany } from '../../lib/companies/service';
import { created, httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

const address = { street: 'Avenida Paulista', number: '1000', city: 'São Paulo', state: 'SP', zipCode: '01310-100' };

export const handler = httpHandler(routes.createCompany, { body: createCompanyBody }, async ({ body, principal, idempotency }) =>
  created(await createCompany(principal, body, Date.now(), idempotency)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 201, description: 'The company: ACTIVE, SIMPLES_NACIONAL, WEIGHTED_AVERAGE, settings `{}`.', body: companyView },
  errors: { 409: 'A company with this document already exists, in any tenant.' },
  description:
    "Creates a fiscal entity in the caller's tenant. Its document (a CPF or a CNPJ, alphanumeric CNPJs included, check digits verified) is unique across the whole service. It starts ACTIVE, SIMPLES_NACIONAL, WEIGHTED_AVERAGE, with settings `{}` unless given.",
  notes: '201 Company: ACTIVE, SIMPLES_NACIONAL, WEIGHTED_AVERAGE, settings `{}`; 409 document used in any tenant',
  example: { body: { name: 'Loja da Ana Centro', document: '12ABC34501DE35', email: 'fiscal@example.com', address } },
});
