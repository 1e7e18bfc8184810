/**
 * A fresh `Idempotency-Key` header for the routes that honour one (the document lists the
 * header on them: POST /tenants, /companies, /suppliers, /inventory/warehouses,
 * /inventory/products, /inventory/movements, /auth/invitations, /auth/sessions/{id}/revoke):
 * `api.POST('/companies', { params: { header: idempotencyKey() }, body })`. Passed as a
 * typed header parameter, it compiles only on those routes.
 *
 * To make a retry safe (after a timeout or a network error), send it again with the SAME key:
 * keep the object and pass it to both attempts. The server answers the first result again
 * with `Idempotent-Replayed: true` and writes nothing. The refresh-on-401 retry resends the
 * same headers, key included.
 */
export function idempotencyKey(): { 'Idempotency-Key': string } {
  return { 'Idempotency-Key': crypto.randomUUID() };
}
